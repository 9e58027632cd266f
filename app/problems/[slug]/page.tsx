import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PROBLEM_TYPE_LIST } from "@/platform/problems/problem-types.mjs";
import { ProblemTypeArticle } from "@/platform/ui/problems/problem-type-article";

/*
 * The page a problem type's URI resolves to: static, one per entry of the registry, public (no sign-in). An
 * unknown slug is a 404 here (with `dynamicParams = false` it would fall through to the signed-in pages'
 * catch-all and redirect to sign-in).
 */

export function generateStaticParams() {
  return PROBLEM_TYPE_LIST.map(({ slug }) => ({ slug }));
}

const entryOf = (slug: string) => PROBLEM_TYPE_LIST.find((e) => e.slug === slug);

export async function generateMetadata({ params }: PageProps<"/problems/[slug]">): Promise<Metadata> {
  const entry = entryOf((await params).slug);
  return { title: entry ? `${entry.title} (problem type) · Player Account Read Service` : "Problem type" };
}

export default async function ProblemTypePage({ params }: PageProps<"/problems/[slug]">) {
  const entry = entryOf((await params).slug);
  if (!entry) notFound();
  return (
    <main id="main">
      <ProblemTypeArticle entry={entry} />
    </main>
  );
}
