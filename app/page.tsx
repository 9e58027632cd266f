export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Player Account Read Service</h1>
      <p className="mt-2">
        API reference:{" "}
        <a className="text-blue-700 underline" href="/api/v1/docs">
          /api/v1/docs
        </a>
      </p>
    </main>
  );
}
