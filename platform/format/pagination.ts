import { formatCount } from "./money.ts";

/** "41–60 of 1,234": the rows shown (1-based, inclusive) and the exact total. */
export function pageRangeText(
  pageIndex: number,
  pageSize: number,
  shown: number,
  total: number,
  locale?: string,
): string {
  if (total === 0 || shown === 0) return `0 of ${formatCount(total, locale)}`;
  const first = pageIndex * pageSize + 1;
  return `${formatCount(first, locale)}–${formatCount(first + shown - 1, locale)} of ${formatCount(total, locale)}`;
}
