import { NotFoundContent } from "@/features/players/ui/not-found-content";

/** Only reached outside the signed-in pages; those render app/(app)/not-found.tsx inside their header. */
export default function NotFound() {
  return (
    <main id="main">
      <NotFoundContent />
    </main>
  );
}
