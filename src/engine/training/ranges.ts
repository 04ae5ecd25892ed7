// Row ranges that split a pass over a matrix among the training pool's threads.
import type { Csr } from '../../../native-free-kernels/csr.js';

// Row ranges of about equal work, one per thread: a row costs its nonzeros plus about f/2 of them
// (its share of the Gram products), so rows are weighted so.
export function ranges(rows: number, m: Csr, parts: number, f: number): [number, number][] {
  const perRow = Math.max(1, f / 2);
  const total = m.indptr[rows]! + rows * perRow;
  const out: [number, number][] = [];
  let start = 0;
  for (let k = 1; k <= parts && start < rows; k++) {
    let end = start;
    const goal = (total * k) / parts;
    while (end < rows && m.indptr[end]! + end * perRow < goal) end++;
    if (k === parts) end = rows;
    if (end > start) out.push([start, end]);
    start = end;
  }
  return out;
}

// Row ranges of equal size, one per thread.
export function evenRanges(rows: number, parts: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < parts; k++) {
    const a = Math.floor((rows * k) / parts),
      b = Math.floor((rows * (k + 1)) / parts);
    if (b > a) out.push([a, b]);
  }
  return out;
}

// Rows [0, rows) in blocks of `size`, `threads` blocks under way at a time, a new block taken while
// more() (a time budget, a retrain waiting): every block taken is finished, so the rows done are a
// prefix. How many.
export async function blocksWhile(
  rows: number,
  size: number,
  threads: number,
  more: () => boolean,
  work: (from: number, to: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const thread = async () => {
    while (next < rows && more()) {
      const from = next;
      next = Math.min(rows, next + size);
      await work(from, next);
    }
  };
  await Promise.all(Array.from({ length: threads }, thread));
  return next;
}
