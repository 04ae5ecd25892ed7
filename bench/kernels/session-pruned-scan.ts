// What the int8 rows (native-free-kernels/quantized-rows.ts) save a session's scan of the longest
// rows, on ml-latest-small trained by the production trainer: rows scored exactly per ranking and
// µs per ranking (candidates.ts rankCandidates, depth 32 as a page's walk asks first, and 128), the
// scan with its int8 bound against the scan of every row, which must give the same items and scores
// (checked for every session, bit for bit). Also the exact ranking by a vector (itemsForVector, a
// user's or a session's rest), which scans the same rows. Sessions: 5 distinct items drawn uniformly
// from all items (what bench/http sends), and 5 items of one real user's ratings.
// Times are CPU time (process.cpuUsage: the machine is shared, and a wall clock counts the other
// processes' turns), hot (ranking after ranking, the rows in the cache) and cold (COLD_BYTES written
// before each ranking, as the rest of a request evicts the rows in the service).
//   npm run build && RECD_DATASETS=/path/to/datasets node dist/bench/kernels/session-pruned-scan.js
//   (F=64 factors, SESSIONS=2000 of each kind by default)
import { foldIn } from '../../src/engine/scoring/fold-in.js';
import { itemsForVector, type Scorable } from '../../src/engine/scoring/rankings.js';
import { gatherCandidates, rankCandidates, SESSION_CANDIDATES } from '../../src/engine/scoring/candidates.js';
import { scoreRows } from '../../native-free-kernels/score-rows.js';
import { sessionFixture } from './session-fixture.js';

const F = Number(process.env.F ?? 64);
const SESSIONS = Number(process.env.SESSIONS ?? 2000);
const { views, m, items, sessions: drawn } = await sessionFixture(F);
const { lists } = views.dims;
const listed = lists > 0 ? views.listOffsets[lists]! : 0;
// The same rows scanned without their int8 rows: the scan as it was.
const exact: Scorable = {
  views,
  rows: scoreRows(views.itemFactors, items, F, views.listMembers.subarray(0, listed), undefined, { prune: false }),
};
const pruned: Scorable = m;

// CPU µs per call of run(s) over all sessions, in PASSES passes alternating the two scans (the
// machine is shared: the median pass and the best are both given); cold: the eviction not counted.
const PASSES = 9;
const COLD_BYTES = 8 << 20;
const evict = new Uint8Array(COLD_BYTES);
const cpu = () => {
  const t = process.cpuUsage();
  return t.user + t.system;
};
function timed(
  runs: Record<string, (s: number) => unknown>,
  count: number,
  cold: boolean,
): Record<string, { median: number; best: number }> {
  const times: Record<string, number[]> = {};
  for (let pass = 0; pass < PASSES; pass++) {
    for (const [name, run] of Object.entries(runs)) {
      let spent = 0;
      if (cold) {
        for (let s = 0; s < count; s++) {
          for (let b = 0; b < COLD_BYTES; b += 64) evict[b] = evict[b]! + 1;
          const t0 = cpu();
          run(s);
          spent += cpu() - t0;
        }
      } else {
        const t0 = cpu();
        for (let s = 0; s < count; s++) run(s);
        spent = cpu() - t0;
      }
      (times[name] ??= []).push(spent / count);
    }
  }
  const out: Record<string, { median: number; best: number }> = {};
  for (const [name, xs] of Object.entries(times)) {
    xs.sort((a, b) => a - b);
    out[name] = { median: xs[Math.floor(xs.length / 2)]!, best: xs[0]! };
  }
  return out;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
const same = (a: { items: ArrayLike<number>; scores: ArrayLike<number> }, b: { items: ArrayLike<number>; scores: ArrayLike<number> }) =>
  a.items.length === b.items.length && Array.from(a.items).every((x, j) => x === b.items[j] && Object.is(a.scores[j], b.scores[j]));

console.log(
  `ml-latest-small, ${items} items × ${F} factors, ${SESSIONS} sessions of 5 items each kind, candidates ${JSON.stringify(SESSION_CANDIDATES)}; ${new Date().toISOString()}`,
);
console.log(
  '| sessions | ranking | depth | rows scored exactly: all rows (mean) | int8 bound: mean (p90) | same result | cache | CPU µs all rows: median (best) | CPU µs int8 bound: median (best) | ratio of medians |',
);
console.log('|---|---|---:|---:|---|---|---|---:|---:|---:|');
for (const kind of ['uniform', 'user'] as const) {
  const ss = drawn(kind, SESSIONS);
  const vectors = ss.map((s) => foldIn(pruned as Scorable & Parameters<typeof foldIn>[0], s.items, s.values));
  for (const [what, depth] of [
    ['session candidates', 32],
    ['session candidates', 128],
    ['vector', 32],
  ] as const) {
    const rank = (model: Scorable, s: number) =>
      what === 'vector'
        ? itemsForVector(model, vectors[s]!, depth)
        : rankCandidates(model.rows, vectors[s]!, gatherCandidates(views, model.rows, ss[s]!.items, SESSION_CANDIDATES), depth);
    const before: number[] = [],
      after: number[] = [];
    let agree = 0;
    for (let s = 0; s < ss.length; s++) {
      const a = rank(exact, s);
      before.push(exact.rows.rescored);
      const b = rank(pruned, s);
      after.push(pruned.rows.rescored);
      if (same(a, b)) agree++;
    }
    for (const cold of [false, true]) {
      // Cold: fewer sessions, each after COLD_BYTES of writes.
      const t = timed({ exact: (s) => rank(exact, s), pruned: (s) => rank(pruned, s) }, cold ? 200 : ss.length, cold);
      const us = (x: { median: number; best: number }) => `${x.median.toFixed(1)} (${x.best.toFixed(1)})`;
      const rows = cold
        ? '| | | | | |'
        : `| ${kind} | ${what} | ${depth} | ${mean(before).toFixed(0)} | ${mean(after).toFixed(0)} (${quantile(after, 0.9)}) | ${agree}/${ss.length} |`;
      console.log(
        `${rows} ${cold ? 'cold' : 'hot'} | ${us(t.exact!)} | ${us(t.pruned!)} | ${(t.pruned!.median / t.exact!.median).toFixed(2)} |`,
      );
    }
  }
}
