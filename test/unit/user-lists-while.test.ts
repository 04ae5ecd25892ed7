// A training's users' lists are made in blocks while the budget allows and no explicit retrain waits
// (lists.ts listUsersWhile): every block taken is finished, the users listed are a prefix of the
// most recently active, and none is taken once `more()` says no.
import t from 'tap';
import { listUsersWhile } from '../../src/engine/training/lists.js';

const BLOCK = 512; // lists.ts USERS_PER_TASK
const N = 3;

// A lister that fills each user's list with its own index, after a turn of the event loop (as a pool
// task answers), and records the blocks it was given.
function lister(): { calls: [number, number][]; list: (from: number, to: number, out: SharedArrayBuffer) => Promise<void> } {
  const calls: [number, number][] = [];
  return {
    calls,
    list: async (from, to, out) => {
      calls.push([from, to]);
      await new Promise((r) => setImmediate(r));
      new Uint32Array(out).fill(from);
    },
  };
}

t.test('all users when more() never says no, in blocks, the last one short', async (t) => {
  const l = lister();
  const users = 3 * BLOCK + 10;
  const got = await listUsersWhile(users, N, 2, () => true, l.list);
  t.equal(got.users, users);
  t.same(
    l.calls.sort((a, b) => a[0] - b[0]),
    [
      [0, BLOCK],
      [BLOCK, 2 * BLOCK],
      [2 * BLOCK, 3 * BLOCK],
      [3 * BLOCK, users],
    ],
  );
  t.same(
    got.blocks.map((b) => b.length),
    [BLOCK * N, BLOCK * N, BLOCK * N, 10 * N],
    'a block of lists per task',
  );
  t.ok(
    got.blocks.every((b, k) => b.every((v) => v === k * BLOCK)),
    "each block holds its own users' lists",
  );
});

t.test('no block is taken once more() says no; those taken are finished', async (t) => {
  for (const threads of [1, 2, 3]) {
    const l = lister();
    let asked = 0;
    // Yes for the first three asks: with several threads, each takes a block on its first ask.
    const got = await listUsersWhile(10 * BLOCK, N, threads, () => ++asked <= 3, l.list);
    t.equal(got.users, 3 * BLOCK, `${threads} threads: three blocks listed`);
    t.equal(l.calls.length, 3, `${threads} threads: three blocks taken`);
    t.equal(got.blocks.filter(Boolean).length, 3);
    t.ok(
      got.blocks.every((b, k) => b.length === BLOCK * N && b.every((v) => v === k * BLOCK)),
      `${threads} threads: a prefix of users, every block filled`,
    );
  }
});

t.test('nothing when more() says no at once', async (t) => {
  const l = lister();
  const got = await listUsersWhile(1000, N, 2, () => false, l.list);
  t.equal(got.users, 0);
  t.equal(l.calls.length, 0);
});
