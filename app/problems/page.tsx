import type { Metadata } from "next";
import { PROBLEM_TYPE_LIST } from "@/platform/problems/problem-types.mjs";

export const metadata: Metadata = { title: "Problem types · Player Account Read Service" };

/** Every problem type of the API, linking each one's page. */
export default function ProblemTypesPage() {
  return (
    <main id="main" className="mx-auto max-w-2xl space-y-4 p-6">
      <h1 className="text-2xl font-semibold">Problem types</h1>
      <p>
        The API answers errors as RFC 9457 problem details; each <code className="font-mono">type</code> is
        the address of one of these pages.
      </p>
      <table className="w-full text-left">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Type</th>
            <th scope="col">Retryable</th>
          </tr>
        </thead>
        <tbody>
          {PROBLEM_TYPE_LIST.map((e) => (
            <tr key={e.slug}>
              <td>{e.status}</td>
              <td>
                <a className="underline" href={`/problems/${e.slug}`}>
                  {e.title}
                </a>
              </td>
              <td>{e.retryable ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
