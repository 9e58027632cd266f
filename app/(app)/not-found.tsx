import { NotFoundContent } from "@/features/players/ui/not-found-content";

/** Rendered inside the (app) layout, so the header with the user and sign-out stays. */
export default function AppNotFound() {
  return <NotFoundContent />;
}
