import Link from "next/link";

/** The 404 body, shared by the signed-in pages (inside the app header) and the bare root fallback. */
export function NotFoundContent({ what = "page" }: { what?: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold text-slate-900">
        {what === "page" ? "Page not found" : `${what} not found`}
      </h1>
      <p className="mt-2 text-slate-600">There is nothing at this address.</p>
      <Link
        href="/"
        className="mt-6 inline-block rounded-md text-indigo-700 underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Go to player lookup
      </Link>
    </div>
  );
}
