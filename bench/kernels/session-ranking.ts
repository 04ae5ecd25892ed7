// What a session's ranking costs, on ml-latest-small trained by the production trainer: the fold-in
// (rankings.ts foldIn, items' solved rows kept) and the ranking by the folded-in vector, exact by the
// bounded scan (bounded-top.ts) against the full scan of every item; the share of items the bounded
// scan scores; and, for the record, how much of the exact top an approximate ranking from the
// precomputed lists would find (candidates: the session items' lists, optionally with the 256
// longest rows), which recd does not use.
// Sessions: 5 distinct items drawn uniformly from all items with ratings 1–10 (what bench/http sends),
// and 5 items of one real user's ratings (a session as users make them).
//   npm run build && RECD_DATASETS=../shared/datasets node dist/bench/kernels/session-ranking.js   (F=64 factors by default)
import { foldIn } from '../../src/engine/scoring/fold-in.js';
import { itemsForGroup, itemsForVector } from '../../src/engine/scoring/rankings.js';
import { sessionFixture, type Session } from './session-fixture.js';

const F = Number(process.env.F ?? 64);
const SESSIONS = 5000;
const { views, m, items, sessions: drawn } = await sessionFixture(F);
const L = views.dims.itemList;
const norms = m.rows.norms;
const longest = Uint32Array.from({ length: items }, (_, k) => k)
  .sort((a, b) => norms[b]! - norms[a]!)
  .subarray(0, 256);
const sessions = (kind: 'uniform' | 'user'): Session[] => drawn(kind, SESSIONS);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const micros = (t0: number, count: number) => `${(((performance.now() - t0) * 1000) / count).toFixed(1)} µs`;

console.log(`ml-latest-small, ${items} items × ${F} factors, ${SESSIONS} sessions of 5 items each kind; ${new Date().toISOString()}`);
console.log(
  '| sessions | fold-in | bounded top 16 | bounded top 32 | bounded top 128 | full scan top 32 | share scored for top 10 / 32 / 128 | lists recall@10 / @64 | lists + 256 longest recall@10 / @64 |',
);
console.log('|---|---:|---:|---:|---:|---:|---|---|---|');
for (const kind of ['uniform', 'user'] as const) {
  const ss = sessions(kind);
  foldIn(m, ss[0]!.items, ss[0]!.values); // the inverse, made once per model
  let t0 = performance.now();
  const vectors = ss.map((s) => foldIn(m, s.items, s.values));
  const foldTime = micros(t0, ss.length);
  const times: string[] = [];
  for (const depth of [16, 32, 128]) {
    for (const v of vectors.slice(0, 500)) itemsForVector(m, v, depth); // warm
    t0 = performance.now();
    for (const v of vectors) itemsForVector(m, v, depth);
    times.push(micros(t0, vectors.length));
  }
  for (const v of vectors.slice(0, 500)) itemsForGroup(m, [v], 0, 32);
  t0 = performance.now();
  for (const v of vectors) itemsForGroup(m, [v], 0, 32);
  const fullTime = micros(t0, vectors.length);
  // Shares and recall from the exact dots.
  const share: Record<number, number[]> = { 10: [], 32: [], 128: [] };
  const recall: Record<string, number[]> = {};
  const add = (k: string, x: number) => (recall[k] ??= []).push(x);
  for (let s = 0; s < 1000; s++) {
    const v = vectors[s]!,
      own = new Set(ss[s]!.items);
    const dots = new Float64Array(items);
    for (let i = 0; i < items; i++) {
      let x = 0;
      for (let a = 0; a < F; a++) x += v[a]! * views.itemFactors[i * F + a]!;
      dots[i] = x;
    }
    const ranked = (from: Iterable<number>, k: number) =>
      [...new Set(from)]
        .filter((i) => !own.has(i) && norms[i]! > 0)
        .sort((a, b) => dots[b]! - dots[a]!)
        .slice(0, k);
    const all = Array.from({ length: items }, (_, i) => i);
    const byNorm = [...all].sort((a, b) => norms[b]! - norms[a]!);
    const vn = Math.hypot(...v);
    for (const k of [10, 32, 128]) {
      const top = ranked(all, k),
        kth = dots[top[top.length - 1]!]!;
      let p = 0;
      while (p < items && norms[byNorm[p]!]! * vn > kth) p++;
      share[k]!.push(p / items);
    }
    const listed: number[] = [];
    for (const i of ss[s]!.items) for (const j of views.itemLists.subarray(i * L, (i + 1) * L)) if (j < items) listed.push(j);
    for (const k of [10, 64]) {
      const exact = new Set(ranked(all, k));
      add(`lists@${k}`, ranked(listed, k).filter((i) => exact.has(i)).length / k);
      add(`longest@${k}`, ranked([...listed, ...longest], k).filter((i) => exact.has(i)).length / k);
    }
  }
  const pct = (xs: number[]) => `${Math.round(100 * mean(xs))} %`;
  const r = (k: string) => mean(recall[k]!).toFixed(3);
  console.log(
    `| ${kind} | ${foldTime} | ${times.join(' | ')} | ${fullTime} | ${pct(share[10]!)} / ${pct(share[32]!)} / ${pct(share[128]!)} | ${r('lists@10')} / ${r('lists@64')} | ${r('longest@10')} / ${r('longest@64')} |`,
  );
}
