// The scoring pool: real worker threads ranking a model's SharedArrayBuffer in place.
import t from 'tap';
import { allocateModel } from '../../src/engine/model/layout.js';
import type { LoadedModel } from '../../src/engine/model/registry.js';
import { scorable, type RankSpec } from '../../src/engine/scoring/rankings.js';
import { ScoringPool } from '../../src/engine/scoring/pool.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

function randomModel(users: number, items: number, factors: number, seed: number): LoadedModel {
  const { buffer, views } = allocateModel({ factors, users, items, itemList: 0, userList: 0, trainedItems: items, lists: 0 });
  const next = mulberry32(seed);
  for (let k = 0; k < views.userFactors.length; k++) views.userFactors[k] = next() - 0.5;
  for (let k = 0; k < views.itemFactors.length; k++) views.itemFactors[k] = next() - 0.5;
  // Ids unique per shape: workers keep item norms per model id (a real model id is a fresh UUID).
  return {
    id: `m${seed}-${users}x${items}x${factors}`,
    meta: {} as LoadedModel['meta'],
    buffer,
    itemIds: [],
    itemIndex: new Map(),
    userIndex: new Map(),
    ...scorable(views),
  };
}

const row = (m: LoadedModel, u: number) => m.views.userFactors.slice(u * m.views.dims.factors, (u + 1) * m.views.dims.factors);
const dot = (m: LoadedModel, x: Float32Array, i: number) => {
  const f = m.views.dims.factors;
  let s = 0;
  for (let a = 0; a < f; a++) s += x[a]! * m.views.itemFactors[i * f + a]!;
  return s;
};

// Best first by a plain sort, for comparison.
function sorted(m: LoadedModel, score: (i: number) => number, k: number, skip = -1) {
  const all: { i: number; s: number }[] = [];
  for (let i = 0; i < m.views.dims.items; i++) if (i !== skip) all.push({ i, s: score(i) });
  return all.sort((a, b) => b.s - a.s || a.i - b.i).slice(0, k);
}

const pool = new ScoringPool(2);
t.teardown(() => pool.close());

t.test('rankings for a vector from worker threads match a plain sort', async (t) => {
  for (let seed = 1; seed <= 8; seed++) {
    const m = randomModel(20, 300 + seed * 17, 1 + seed * 3, seed);
    for (const user of [0, 7, 19]) {
      const x = row(m, user);
      const got = await pool.rank(m, { kind: 'vector', vector: x }, 10);
      const want = sorted(m, (i) => dot(m, x, i), 10);
      t.same(
        Array.from(got.items),
        want.map((w) => w.i),
        `seed ${seed} user ${user}: items`,
      );
      got.scores.forEach((s, k) => t.ok(Math.abs(s - want[k]!.s) < 1e-4, `seed ${seed} user ${user} rank ${k}: score`));
    }
  }
});

t.test('similar items from worker threads: cosine order, never the item itself', async (t) => {
  const m = randomModel(2, 500, 16, 42);
  const f = 16;
  const norm = (i: number) => Math.hypot(...m.views.itemFactors.subarray(i * f, (i + 1) * f));
  for (const item of [0, 123, 499]) {
    const x = m.views.itemFactors.slice(item * f, (item + 1) * f);
    const got = await pool.rank(m, { kind: 'similar', item }, 20);
    t.same(
      Array.from(got.items),
      sorted(m, (i) => dot(m, x, i) / (norm(i) * norm(item)), 20, item).map((w) => w.i),
      `item ${item}`,
    );
    t.notOk(Array.from(got.items).includes(item), `item ${item} is not its own neighbour`);
  }
});

t.test('the workers read the shared rows themselves: a change made after publishing is seen', async (t) => {
  const m = randomModel(3, 40, 4, 7);
  const x = row(m, 1);
  // A group of one scores every row (a vector's ranking reads the rows' norm-ordered copy instead).
  const spec: RankSpec = { kind: 'group', vectors: [x], consensus: 0 };
  const before = await pool.rank(m, spec, 1);
  const other = (before.items[0]! + 1) % 40;
  // Make another item the best by far, in place, in the model's buffer and in the rows the kernels
  // score (the wasm kernels' copy of them, shared with the workers; the same array for the
  // TypeScript kernels). Under a new id: workers attach to rows per model id, and a published model
  // never changes.
  for (let a = 0; a < 4; a++) m.views.itemFactors[other * 4 + a] = m.rows.factors[other * 4 + a] = 1000 * Math.sign(x[a]!);
  const after = await pool.rank({ ...m, id: 'm7-changed' }, spec, 1);
  t.equal(after.items[0], other);
});

t.test('a ranking deeper than the catalogue lists every item once and says it is complete', async (t) => {
  const m = randomModel(1, 30, 4, 3);
  const r = await pool.rank(m, { kind: 'vector', vector: row(m, 0) }, 100);
  t.equal(r.items.length, 30);
  t.equal(new Set(r.items).size, 30);
  t.ok(r.complete);
});

t.test('a closed pool takes no ranking: none starts a thread again', async (t) => {
  const closing = new ScoringPool(1);
  const m = randomModel(1, 30, 4, 5);
  t.equal((await closing.rank(m, { kind: 'vector', vector: row(m, 0) }, 5)).items.length, 5, 'served while open');
  await closing.close();
  // piscina's destroy alone leaves its pool usable: this ranking would start a thread after the stop.
  await t.rejects(closing.rank(m, { kind: 'vector', vector: row(m, 0) }, 5), /closed/);
});
