// A session's ranking from candidates (src/engine/scoring/candidates.ts, rankings.ts sessionRanking):
// the candidates (its items' lists and the longest rows) in the order and with the scores the full
// ranking gives them; past the candidates, the rest of the full ranking in its order, so every deeper
// ranking only appends; through both score kernels and the scoring pool's entry (rank, rankWithin).
import t from 'tap';
import { allocateModel, NO_ITEM, type ModelViews } from '../../src/engine/model/layout.js';
import { gatherCandidates, rankCandidates, SESSION_CANDIDATES, type CandidateSource } from '../../src/engine/scoring/candidates.js';
import { itemsForVector, rank, rankWithin, scorable, sessionRanking, type Scorable } from '../../src/engine/scoring/rankings.js';
import { dotAt } from '../../native-free-kernels/dot.js';
import { normOrderOf } from '../../native-free-kernels/lists.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { scoreRows } from '../../native-free-kernels/score-rows.js';

// A model of n items × f factors of random directions and lengths (some rows of zeros, as items
// without ratings have), each item's list its L most similar by cosine, NO_ITEM-padded for a few.
function model(seed: number, n: number, f: number, L: number): ModelViews {
  const rand = mulberry32(seed);
  const { views } = allocateModel({ factors: f, users: 0, items: n, itemList: L, userList: 0, trainedItems: n, lists: 0 });
  const y = views.itemFactors;
  for (let r = 0; r < n; r++) {
    if (rand() < 0.05) continue;
    const length = Math.exp(rand() * 3);
    for (let a = 0; a < f; a++) y[r * f + a] = (rand() - 0.5) * length;
  }
  const norms = new Float32Array(n);
  rowNormsTo(norms, y, n, f);
  for (let i = 0; i < n; i++) {
    const cos = (j: number) => dotAt(y, i * f, y, j * f, f) / (norms[i]! * norms[j]!);
    const near =
      norms[i] === 0
        ? []
        : Array.from({ length: n }, (_, j) => j)
            .filter((j) => j !== i && norms[j]! > 0)
            .sort((a, b) => cos(b) - cos(a) || a - b);
    const list = views.itemLists.subarray(i * L, (i + 1) * L).fill(NO_ITEM);
    list.set(near.slice(0, i % 7 === 0 ? L >> 1 : L));
  }
  return views;
}

// The TypeScript kernels, as a scoring thread without WebAssembly attaches them.
function tsScorable(v: ModelViews): Scorable {
  const { items: n, factors: f } = v.dims;
  const norms = new Float32Array(new SharedArrayBuffer(n * 4));
  rowNormsTo(norms, v.itemFactors, n, f);
  const o = normOrderOf(v.itemFactors, norms, n, f);
  const buffer = (a: ArrayBufferView) => a.buffer as SharedArrayBuffer;
  const shared = {
    norms: buffer(norms),
    listRows: new SharedArrayBuffer(0),
    order: buffer(o.order),
    sortedNorms: buffer(o.norms),
    sortedRows: buffer(o.rows),
    count: o.count,
  };
  return { views: v, rows: scoreRows(v.itemFactors, n, f, new Uint32Array(0), shared) };
}

// The candidates by their definition: the seeds' lists (first perSeed) and the first `longest`
// rows of the norm order, rows with factors only.
function candidateSet(m: Scorable, seeds: number[], src: CandidateSource): Set<number> {
  const v = m.views,
    L = v.dims.itemList;
  const out = new Set<number>(m.rows.normOrder.subarray(0, src.longest));
  for (const s of seeds)
    for (const i of v.itemLists.subarray(s * L, s * L + Math.min(src.perSeed, L))) if (i !== NO_ITEM && m.rows.norms[i]! > 0) out.add(i);
  return out;
}

// Best first by the TypeScript twin's score (f64 sum stored in f32), ties by row.
function ranked(v: ModelViews, x: Float32Array, items: Iterable<number>): { items: number[]; scores: number[] } {
  const f = v.dims.factors;
  const scored = [...items]
    .map((i) => ({ i, s: Math.fround(dotAt(x, 0, v.itemFactors, i * f, f)) }))
    .sort((a, b) => b.s - a.s || a.i - b.i);
  return { items: scored.map((e) => e.i), scores: scored.map((e) => e.s) };
}

const query = (rand: () => number, f: number) => Float32Array.from({ length: f }, () => rand() - 0.5);
const seedsOf = (rand: () => number, n: number, k: number) => {
  const s = new Set<number>();
  while (s.size < k) s.add(Math.floor(rand() * n));
  return [...s];
};

t.test('the candidates ranked as the full ranking ranks them (TypeScript kernels)', async (t) => {
  const v = model(1, 400, 12, 16);
  const m = tsScorable(v);
  const rand = mulberry32(2);
  for (const src of [
    { perSeed: 16, longest: 40 },
    { perSeed: 4, longest: 0 },
    { perSeed: 0, longest: 100 },
    { perSeed: 16, longest: 400 },
  ]) {
    for (let trial = 0; trial < 20; trial++) {
      const seeds = seedsOf(rand, 400, 1 + (trial % 5));
      const x = query(rand, 12);
      const c = gatherCandidates(v, m.rows, seeds, src);
      const want = ranked(v, x, candidateSet(m, seeds, src));
      for (const depth of [1, 10, 32, want.items.length + 5]) {
        const got = rankCandidates(m.rows, x, c, depth);
        const tag = `perSeed ${src.perSeed}, longest ${src.longest}, seeds ${seeds.length}, depth ${depth}`;
        t.same([...got.items], want.items.slice(0, depth), `${tag}: items`);
        t.same([...got.scores], want.scores.slice(0, depth), `${tag}: scores`);
      }
    }
  }
});

t.test('past its candidates a session ranks the rest in full-ranking order; deeper rankings only append', async (t) => {
  const n = 2400;
  const v = model(3, n, 8, 24);
  const rand = mulberry32(4);
  for (const m of [tsScorable(v), scorable(v)]) {
    for (let trial = 0; trial < 6; trial++) {
      const seeds = seedsOf(rand, n, 5);
      const x = query(rand, 8);
      const cands = candidateSet(m, seeds, SESSION_CANDIDATES);
      const full = itemsForVector(m, x, n);
      const whole = sessionRanking(m, x, Uint32Array.from(seeds), n + 1)!;
      const rankable = full.items.length;
      t.equal(whole.items.length, rankable, 'the deepest holds every item with factors');
      t.equal(new Set(whole.items).size, rankable, 'once each');
      t.ok(whole.complete, 'and is complete');
      t.same(new Set(whole.items.subarray(0, cands.size)), cands, 'the candidates first');
      t.same(
        [...whole.items.subarray(cands.size)],
        [...full.items].filter((i) => !cands.has(i)),
        'then the rest in the full ranking order',
      );
      for (const depth of [1, 10, 32, 128, cands.size, cands.size + 1, cands.size + 300]) {
        const r = sessionRanking(m, x, Uint32Array.from(seeds), depth)!;
        t.same([...r.items], [...whole.items.subarray(0, depth)], `depth ${depth}: a prefix of the deepest`);
        t.equal(r.complete, depth > rankable, `depth ${depth}: complete only past every item`);
      }
    }
  }
});

t.test('the SIMD kernels rank the candidates as the TypeScript ones, up to f32 near-ties', async (t) => {
  const v = model(5, 2400, 16, 24);
  const simd = scorable(v),
    twin = tsScorable(v);
  const rand = mulberry32(6);
  for (let trial = 0; trial < 20; trial++) {
    const seeds = Uint32Array.from(seedsOf(rand, 2400, 5));
    const x = query(rand, 16);
    const a = sessionRanking(simd, x, seeds, 64)!,
      b = sessionRanking(twin, x, seeds, 64)!;
    t.equal(a.items.length, b.items.length, 'as many');
    const tol = (s: number) => 1e-5 + 1e-4 * Math.abs(s);
    t.ok(
      [...a.scores].every((s, c) => Math.abs(s - b.scores[c]!) <= tol(s)),
      'the same scores rank by rank',
    );
  }
});

t.test('the scoring pool ranks a session as the event loop; it runs inline only when allowed', async (t) => {
  const v = model(7, 2400, 8, 24);
  const m = scorable(v);
  const rand = mulberry32(8);
  const spec = { kind: 'session' as const, vector: query(rand, 8), seeds: Uint32Array.from(seedsOf(rand, 2400, 3)) };
  for (const depth of [32, 3000]) t.same(rank(m, spec, depth), sessionRanking(m, spec.vector, spec.seeds, depth), `rank, depth ${depth}`);
  t.equal(rankWithin(m, spec, 32, 0), undefined, 'no work allowed here: the pool ranks it');
  t.same(rankWithin(m, spec, 32, 1e9), rank(m, spec, 32), 'enough work allowed: ranked here');
});

t.test('rowDotsTo: the SIMD kernel and its TypeScript twin give the same dots; bad arguments throw', async (t) => {
  const v = model(9, 300, 13, 8);
  const simd = scorable(v).rows,
    twin = tsScorable(v).rows;
  const rand = mulberry32(10);
  for (const count of [0, 1, 3, 4, 5, 17, 300]) {
    const items = Uint32Array.from(seedsOf(rand, 300, count));
    const x = query(rand, 13);
    const a = new Float32Array(count),
      b = new Float32Array(count);
    simd.rowDotsTo(a, x, items);
    twin.rowDotsTo(b, x, items);
    const tol = (s: number) => 1e-5 + 1e-4 * Math.abs(s);
    t.ok(
      [...a].every((s, c) => Math.abs(s - b[c]!) <= tol(s)),
      `${count} rows`,
    );
    t.same(
      [...b],
      [...items].map((i) => Math.fround(dotAt(x, 0, v.itemFactors, i * 13, 13))),
      `${count} rows: the twin's dots`,
    );
  }
  for (const rows of [simd, twin]) {
    t.throws(() => rows.rowDotsTo(new Float32Array(1), new Float32Array(12), Uint32Array.of(0)), 'a query of the wrong length');
    t.throws(() => rows.rowDotsTo(new Float32Array(1), new Float32Array(13), Uint32Array.of(300)), 'an item outside the rows');
    t.throws(() => rows.rowDotsTo(new Float32Array(0), new Float32Array(13), Uint32Array.of(1)), 'dst too short');
  }
});
