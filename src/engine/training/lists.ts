// The lists a model carries so that requests need not rank (engine/model/layout.ts): every item's
// most similar items, and the best unrated items of as many users as the time allows, the most
// recently active first (a user without a list gets one on their first request).
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { SharedRows } from '../../../native-free-kernels/score-rows.js';
import { modelViews, withUserLists } from '../model/layout.js';
import type { TrainingPool } from './pool.js';
import { blocksWhile } from './ranges.js';
import { refineFanout, type UserLister } from './tasks.js';
import { weightsLister } from './item-weights.js';
import type { ListsChoice } from './lists-choice.js';

// Users per task: large enough that a task's set-up is noise, small enough that the time budget is
// overrun by little more than one task per thread, and that another database's run, which waits for
// one task (fair-share.ts), waits for tens of ms: a task holds about USER_TASK_WORK multiply-adds (a
// user's list scans up to every item's factors), a multiple of four users (the SIMD kernel's
// groups). 512 users at 2,000 items of 32 factors, 40 at 100,000 and 20 at 200,000, where tasks of
// 512 took 1–2 s in TypeScript and held a small database's first model 22 s (bench/http/learning.ts). The
// SIMD kernel (wasm-user-lists.ts) lists 40 users of 100,000 items in about 8 ms; tasks of the 10
// the TypeScript kernel's 1 ms a user called for spent a sixth of the phase passing messages.
const USERS_PER_TASK = 512;
const USER_TASK_WORK = 2 ** 27;
const usersPerTask = (items: number, factors: number) =>
  4 * Math.max(2, Math.min(USERS_PER_TASK / 4, Math.floor(USER_TASK_WORK / Math.max(1, 4 * items * factors))));

// Rounds of neighbours of neighbours over the item lists at most, and the share of lists a round
// may still change when they count as settled. After the first, a round refines only the rows whose
// neighbourhood changed: on the synthetic 100k catalogue a quarter, then a twentieth, of the rows,
// so rounds until settled cost about 1.2 times one (bench/kernels/item-lists-recall.ts).
const REFINE_ROUNDS = 8;
const SETTLED_SHARE = 0.01;

// Items per task of the item lists' passes: the threads are shared with other databases' runs in
// turns of one task (fair-share.ts), so a task is what another run may wait for (ms to a few hundred
// ms at 200,000 items), and each one done moves the run's progress.
const ITEMS_PER_TASK = 256;

// Row ranges of `size` over [0, rows).
function blocks(rows: number, size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < rows; a += size) out.push([a, Math.min(rows, a + size)]);
  return out;
}

// Every block through `task`, the progress told of each one done (fraction from..to of the phase).
async function eachBlock<T>(
  rows: number,
  size: number,
  task: (from: number, to: number) => Promise<T>,
  done: (rowsDone: number) => void,
): Promise<T[]> {
  let finished = 0;
  return Promise.all(
    blocks(rows, size).map(([a, b]) =>
      task(a, b).then((r) => {
        done((finished += b - a));
        return r;
      }),
    ),
  );
}

export interface Listed {
  users: number; // users given a list
  seconds: number;
  model: SharedArrayBuffer; // the model with their lists (the one given when it has no users' lists)
  cut: boolean; // users' lists ended before their time for a retrain waiting behind this one
}

// Lists for items given factors after a training (ml_new_items), each from its similar-items ranking
// (through the index where the model has one), as many as `seconds` allow (the users' lists' budget,
// RECD_USER_LISTS_SECONDS), in chunks of rows: an item left without one is ranked on each request for it.
export async function listNewItems(
  pool: TrainingPool,
  model: SharedArrayBuffer,
  rows: SharedArrayBuffer,
  seconds: number,
  progress: (text: string) => void,
): Promise<number> {
  const dims = modelViews(model).dims;
  if (dims.itemList === 0) return 0;
  const sharedRows = await pool.sharedRows({ model });
  const count = rows.byteLength / 4;
  const deadline = performance.now() + seconds * 1000;
  return blocksWhile(
    count,
    ITEMS_PER_TASK,
    pool.threads,
    () => performance.now() < deadline,
    (rowStart, rowEnd) => {
      progress(`lists of new items ${shown(rowStart)}/${shown(count)}`);
      return pool.itemLists({ model, sharedRows, rowStart, rowEnd, rows });
    },
  );
}

const shown = (x: number) => x.toLocaleString('en-US');

// Users' lists by `lister` when given (listerFor), else by the model's factors.
export async function listerFor(
  pool: TrainingPool,
  model: SharedArrayBuffer,
  byUser: Csr,
  byItem: Csr,
  choice: ListsChoice,
): Promise<UserLister> {
  if (choice.model === 'popularity') return (users, from, to, out) => pool.popularUserLists({ model, byUser, users, from, to, out });
  return weightsLister(pool, model, byUser, byItem, choice);
}

// Item lists, then users' lists for `seconds` at most, ended early when `cut()` (an explicit retrain
// waits behind this run: the users listed so far are published, the rest listed on first request).
export async function computeLists(
  pool: TrainingPool,
  model: SharedArrayBuffer,
  byUser: Csr,
  byItem: Csr,
  recent: SharedArrayBuffer,
  seconds: number,
  cut: () => boolean,
  progress: (text: string, done?: number) => void,
  lister?: UserLister,
): Promise<Listed> {
  const started = performance.now();
  const dims = modelViews(model).dims;
  const sharedRows = dims.lists > 0 && dims.itemList > 0 ? await pool.sharedRows({ model }) : undefined;
  if (dims.itemList > 0) {
    progress('item lists', 0);
    await eachBlock(
      dims.items,
      ITEMS_PER_TASK,
      (rowStart, rowEnd) => pool.itemLists({ model, sharedRows, rowStart, rowEnd }),
      (k) => progress(`item lists ${shown(k)}/${shown(dims.items)}`, (0.3 * k) / dims.items),
    );
  }
  if (sharedRows !== undefined) {
    // The index misses neighbours in lists far from the item's: most are neighbours of its neighbours.
    // Rounds until few lists change; a round refines only the rows whose neighbourhood changed.
    const bytes = dims.items * refineFanout(dims.itemList) * 4;
    const heads = () => ({ heads: new SharedArrayBuffer(bytes), reverse: new SharedArrayBuffer(bytes) });
    let now = heads(),
      last: ReturnType<typeof heads> | undefined;
    const stale = new SharedArrayBuffer(dims.items);
    for (let round = 1; round <= REFINE_ROUNDS; round++) {
      const refined = (k: number) =>
        progress(
          `item lists: neighbours of neighbours, round ${round}, ${shown(k)}/${shown(dims.items)}`,
          0.3 + (0.15 * k) / dims.items / REFINE_ROUNDS,
        );
      refined(0);
      if ((await pool.listHeads({ model, ...now, last, stale })) === 0) break;
      const changed = await eachBlock(
        dims.items,
        ITEMS_PER_TASK,
        (rowStart, rowEnd) => pool.refineItemLists({ model, ...now, stale, sharedRows, rowStart, rowEnd }),
        refined,
      );
      if (changed.reduce((a, b) => a + b, 0) < dims.items * SETTLED_SHARE) break;
      [now, last] = [last ?? heads(), now];
    }
    // Items rated by the same few users have nearly parallel rows, scattered over the index's lists:
    // their raters' items hold them. After the rounds (at 1M items recall@64 0.958 against 0.956
    // before them, bench/kernels/item-lists-recall.ts), in many small parts, as the work lies on the items of heavy raters.
    progress('item lists: co-rated items', 0.45);
    await eachBlock(
      dims.items,
      ITEMS_PER_TASK,
      (rowStart, rowEnd) => pool.coRatedLists({ model, byUser, byItem, sharedRows, rowStart, rowEnd }),
      (k) => progress(`item lists: co-rated items ${shown(k)}/${shown(dims.items)}`, 0.45 + (0.05 * k) / dims.items),
    );
  }
  if (dims.userList === 0) return { users: 0, seconds: (performance.now() - started) / 1000, model, cut: false };
  const n = dims.userList;
  const list = lister ?? (await factorLister(pool, model, byUser, sharedRows));
  const users = recent.byteLength / 4;
  const deadline = performance.now() + seconds * 1000;
  let wasCut = false;
  const more = () => performance.now() < deadline && !(wasCut = cut());
  const listed = await listUsersWhile(
    users,
    n,
    pool.threads,
    more,
    (from, to, out) => {
      progress(`user lists ${from.toLocaleString('en-US')}/${users.toLocaleString('en-US')}`, 0.5 + 0.5 * (from / users));
      return list(recent, from, to, out);
    },
    usersPerTask(dims.items, dims.factors),
  );
  // None listed: the model as it is (no copy), every user's slot empty.
  const withLists = listed.users === 0 ? model : withUserLists(model, new Uint32Array(recent, 0, listed.users), listed.blocks);
  return { users: listed.users, seconds: (performance.now() - started) / 1000, model: withLists, cut: wasCut };
}

/**
 * The lists of the first `users` users (the most recently active first), `threads` blocks of
 * `perTask` users at a time, each block of lists of `n` made by `list` into a buffer of its own,
 * taking a new block while `more()` (the time budget, and no explicit retrain waiting). How many
 * are known only at the end, so the model is then built with slots for those users only (memory:
 * the lists made, in blocks and in the model, not a list for every user). Every block taken is
 * finished: the users listed are a prefix.
 */
export async function listUsersWhile(
  users: number,
  n: number,
  threads: number,
  more: () => boolean,
  list: (from: number, to: number, out: SharedArrayBuffer) => Promise<void>,
  perTask = USERS_PER_TASK,
): Promise<{ users: number; blocks: Uint32Array[] }> {
  const blocks: Uint32Array[] = [];
  const listed = await blocksWhile(users, perTask, threads, more, (from, to) => {
    const out = new SharedArrayBuffer((to - from) * n * 4);
    blocks[from / perTask] = new Uint32Array(out);
    return list(from, to, out);
  });
  return { users: listed, blocks };
}

// Users' lists by the model's factors, over the rows the item lists scored when they were built.
async function factorLister(pool: TrainingPool, model: SharedArrayBuffer, byUser: Csr, built?: SharedRows): Promise<UserLister> {
  const sharedRows = built ?? (await pool.sharedRows({ model }));
  return (users, from, to, out) => pool.userLists({ model, byUser, users, sharedRows, from, to, out });
}
