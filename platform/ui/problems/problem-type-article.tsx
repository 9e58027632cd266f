import type { ProblemTypeEntry } from "@/platform/problems/problem-types.mjs";
import { InlineCode } from "./inline-code";

/** One problem type as a page: what it means, whether a retry can succeed and what to do. */
export function ProblemTypeArticle({ entry }: { entry: ProblemTypeEntry }) {
  return (
    <article className="mx-auto max-w-2xl space-y-4 p-6">
      <p className="text-sm text-slate-600">
        <a className="underline" href="/problems">
          Problem types
        </a>{" "}
        of the Player Account Read Service API
      </p>
      <h1 className="text-2xl font-semibold">{entry.title}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="font-medium">Type URI</dt>
        <dd>
          this page: <code className="break-all font-mono">{`<this server>/problems/${entry.slug}`}</code>
        </dd>
        <dt className="font-medium">HTTP status</dt>
        <dd>{entry.status}</dd>
        <dt className="font-medium">Retryable</dt>
        <dd data-testid="retryable">
          {entry.retryable ? "Yes: the same request can succeed later." : "No: the same request fails again."}
        </dd>
      </dl>
      <h2 className="text-lg font-semibold">When it is answered</h2>
      <p>
        <InlineCode text={entry.description} />
      </p>
      <h2 className="text-lg font-semibold">What to do</h2>
      <p>
        <InlineCode text={entry.action} />
      </p>
      <p className="text-sm text-slate-600">
        Every problem body (<code className="font-mono">application/problem+json</code>, RFC 9457) carries{" "}
        <code className="font-mono">type</code>, <code className="font-mono">title</code>,{" "}
        <code className="font-mono">status</code>, <code className="font-mono">detail</code> and{" "}
        <code className="font-mono">request_id</code>; quote the request id when reporting an issue.
      </p>
    </article>
  );
}
