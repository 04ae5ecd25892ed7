// One full ranking (one query against every item, top 64) with the TypeScript kernels against the
// WebAssembly SIMD ones, in the same run: multiply-adds per second and ms per ranking, for a user's
// vector (groupScoresTo, one query), an item's cosine neighbours (cosineScoresTo) and a group of
// four users (groupScoresTo, four queries, consensus 0.5), at 100k and 1M items × 64 factors. The two alternate ranking by ranking, each query drawn at random.
// Run: node dist/bench/kernels/wasm-speed.js   (BENCH_SIZES=100000 to choose sizes)
import os from 'node:os';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { scoreRows } from '../../native-free-kernels/score-rows.js';
import { cosineScoresTo, groupScoresTo } from '../../native-free-kernels/scores.js';
import { topKTo } from '../../native-free-kernels/top-k.js';

const F = 64;
const DEPTH = 64;
const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map(Number);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`Machine: ${os.cpus()[0]?.model}, ${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString()}`);
console.log('| items × f | ranking | TS ms (median) | wasm ms (median) | TS G mult-adds/s | wasm G mult-adds/s | wasm ÷ TS speed |');
console.log('|---|---|---:|---:|---:|---:|---:|');
const notes: string[] = [];
for (const n of SIZES) {
  const rand = mulberry32(n);
  const factors = new Float32Array(n * F);
  for (let k = 0; k < factors.length; k++) factors[k] = rand() - 0.5;
  let t0 = performance.now();
  const rows = scoreRows(factors, n, F, new Uint32Array(0));
  const built = performance.now() - t0;
  const norms = rows.norms;
  const scores = new Float32Array(n),
    items = new Uint32Array(DEPTH),
    best = new Float32Array(DEPTH);
  const memory = rows.shared instanceof WebAssembly.Memory ? rows.shared : undefined;
  const runs = n >= 1_000_000 ? 12 : 40;
  const group = Array.from({ length: 4 }, () => Float32Array.from({ length: F }, () => rand() - 0.5));
  const kinds = {
    vector: {
      queries: 1,
      ts: (q: Float32Array) => groupScoresTo(scores, factors, norms, n, F, [q], 0),
      wasm: (q: Float32Array) => rows.groupScoresTo(scores, [q], 0),
    },
    cosine: {
      queries: 1,
      ts: (_: Float32Array, item: number) => cosineScoresTo(scores, factors, norms, n, F, item),
      wasm: (_: Float32Array, item: number) => rows.cosineScoresTo(scores, item),
    },
    'group of 4': {
      queries: 4,
      ts: (q: Float32Array) => groupScoresTo(scores, factors, norms, n, F, [q, ...group.slice(1)], 0.5),
      wasm: (q: Float32Array) => rows.groupScoresTo(scores, [q, ...group.slice(1)], 0.5),
    },
  };
  for (const [kind, { queries, ts, wasm }] of Object.entries(kinds)) {
    const times = { ts: [] as number[], wasm: [] as number[] };
    const tops: string[] = [];
    for (let r = 0; r < runs + 2; r++) {
      const q = Float32Array.from({ length: F }, () => rand() - 0.5),
        item = Math.floor(rand() * n);
      for (const [name, score] of [
        ['ts', ts],
        ['wasm', wasm],
      ] as const) {
        t0 = performance.now();
        score(q, item);
        topKTo(items, best, scores, n, DEPTH);
        if (r >= 2) times[name].push(performance.now() - t0);
        if (r === 2) tops.push(items.join());
      }
    }
    const ms = { ts: median(times.ts), wasm: median(times.wasm) };
    const rate = (t: number) => ((n * F * queries) / (t / 1000) / 1e9).toFixed(2);
    console.log(
      `| ${n.toLocaleString('en-US')} × ${F} | ${kind} → top ${DEPTH} | ${ms.ts.toFixed(2)} | ${ms.wasm.toFixed(2)} | ${rate(ms.ts)} | ${rate(ms.wasm)} | ${(ms.ts / ms.wasm).toFixed(2)}× |`,
    );
    if (tops[0] !== tops[1]) notes.push(`${n} ${kind}: the TS and wasm top ${DEPTH} differ (near-ties)`);
  }
  const wasmBytes = memory?.buffer.byteLength ?? 0;
  notes.push(
    `${n.toLocaleString('en-US')} × ${F}: rows copied into wasm memory in ${built.toFixed(0)} ms; wasm memory ${(wasmBytes / 1e6).toFixed(1)} MB after one scratch slot (model factors ${((n * F * 4) / 1e6).toFixed(1)} MB)`,
  );
}
for (const note of notes) console.log(`- ${note}`);
