/**
 * `fn` over `source` with at most `limit` calls outstanding, results yielded in source order. Memory stays
 * bounded by `limit` items however long the source, and slow items do not reorder the output.
 */
export async function* mapInOrder<T, R>(
  source: AsyncIterable<T>,
  fn: (item: T) => Promise<R>,
  limit: number,
): AsyncGenerator<R> {
  const iterator = source[Symbol.asyncIterator]();
  const pending: Promise<R>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && pending.length < limit) {
        const next = await iterator.next();
        if (next.done) exhausted = true;
        else pending.push(fn(next.value));
      }
      const first = pending.shift();
      if (!first) return;
      yield await first;
    }
  } finally {
    // Stopped early (an error downstream): no unhandled rejections from what was still running.
    for (const p of pending) p.catch(() => {});
    if (!exhausted) await iterator.return?.();
  }
}
