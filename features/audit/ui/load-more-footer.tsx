import { buttonClass } from "../../../platform/ui/button.tsx";

/** "Showing 12 reads in 4 entries of 30": reads loaded, the rows they make, and the total when known. */
function describeLoaded(reads: number, entries: number, total: number | null): string {
  const of = total !== null ? ` of ${total}` : "";
  return `Showing ${reads} read${reads === 1 ? "" : "s"}${of} in ${entries} entr${entries === 1 ? "y" : "ies"}`;
}

/** Under an audit list: what is loaded (or that loading more failed), and Load more while the cursor goes on. */
export function LoadMoreFooter({
  list,
  reads,
  entries,
  total = null,
}: {
  list: {
    isFetching: boolean;
    isError: boolean;
    hasNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
  };
  reads: number;
  entries: number;
  total?: number | null;
}) {
  const failed = reads > 0 ? "Could not load more; try again." : "";
  return (
    <div className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm">
      <span aria-live="polite" className="text-slate-600">
        {list.isFetching ? "Loading…" : list.isError ? failed : describeLoaded(reads, entries, total)}
      </span>
      {list.hasNextPage ? (
        <button
          type="button"
          disabled={list.isFetching}
          className={buttonClass("secondary", "sm")}
          onClick={() => void list.fetchNextPage()}
        >
          Load more
        </button>
      ) : null}
    </div>
  );
}
