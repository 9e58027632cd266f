import { NotFoundContent } from "@/components/lookup/not-found-content";

/** Rendered inside the (app) layout, so the header with the user and sign-out stays. */
export default function AppNotFound() {
  return <NotFoundContent />;
}
