// The scoring pool: real worker threads reading a model's SharedArrayBuffer in place.
import t from 'tap';
import { allocateModel } from '../../src/engine/layout.js';
import type { LoadedModel } from '../../src/engine/registry.js';
import { ScoringPool } from '../../src/engine/scoring-pool.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

function randomModel(users: number, items: number, factors: number, seed: number): LoadedModel {
  const { buffer, views } = allocateModel({ factors, users, items, neighbours: 0, trainedItems: items });
  const next = mulberry32(seed);
  for (let k = 0; k < views.userFactors.length; k++) views.userFactors[k] = next() - 0.5;
  for (let k = 0; k < views.itemFactors.length; k++) views.itemFactors[k] = next() - 0.5;
  return { id: `m${seed}`, meta: {} as LoadedModel['meta'], buffer, views, itemIds: [], itemIndex: new Map(), itemNorms: new Float32Array(items) };
}

// Scores by plain sorting, for comparison.
function expected(m: LoadedModel, user: number, k: number, mask?: Uint8Array) {
  const { items, factors: f } = m.views.dims;
  const all: { i: number; s: number }[] = [];
  for (let i = 0; i < items; i++) {
    if (mask && mask[i] !== 1) continue;
    let s = 0;
    for (let a = 0; a < f; a++) s += m.views.userFactors[user * f + a]! * m.views.itemFactors[i * f + a]!;
    all.push({ i, s: Math.fround(s) });
  }
  return all.sort((a, b) => b.s - a.s || a.i - b.i).slice(0, k);
}

const pool = new ScoringPool(2);
t.teardown(() => pool.close());

t.test('top items from worker threads match a plain sort', async (t) => {
  for (let seed = 1; seed <= 8; seed++) {
    const m = randomModel(20, 300 + seed * 17, 1 + seed * 3, seed);
    for (const user of [0, 7, 19]) {
      const got = await pool.topItems(m, user, 10);
      const want = expected(m, user, 10);
      t.same(Array.from(got.items), want.map((w) => w.i), `seed ${seed} user ${user}: items`);
      got.scores.forEach((s, k) => t.ok(Math.abs(s - want[k]!.s) < 1e-5, `seed ${seed} user ${user} rank ${k}: score`));
    }
  }
});

t.test('the mask restricts the items, and k beyond them returns fewer', async (t) => {
  const m = randomModel(5, 50, 8, 99);
  const mask = new Uint8Array(50);
  for (const i of [3, 9, 27, 44]) mask[i] = 1;
  const got = await pool.topItems(m, 2, 10, mask);
  t.same(Array.from(got.items), expected(m, 2, 10, mask).map((w) => w.i));
  t.equal(got.items.length, 4);
});

t.test('the workers read the shared buffer itself: a change made after publishing is seen', async (t) => {
  const m = randomModel(3, 40, 4, 7);
  const before = await pool.topItems(m, 1, 1);
  const best = before.items[0]!;
  // Make another item the best by far, in place, in the same buffer.
  const other = (best + 1) % 40;
  for (let a = 0; a < 4; a++) m.views.itemFactors[other * 4 + a] = 1000 * Math.sign(m.views.userFactors[4 + a]!);
  const after = await pool.topItems(m, 1, 1);
  t.equal(after.items[0], other);
});

t.test('a user row outside the model is refused', async (t) => {
  const m = randomModel(3, 10, 2, 3);
  await t.rejects(pool.topItems(m, 3, 5), /outside/);
  await t.rejects(pool.topItems(m, -1, 5), /outside/);
});
