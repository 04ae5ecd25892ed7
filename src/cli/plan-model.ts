// The capacity planner's cost model (`recd plan`): Redis memory, recd memory per serving process,
// model size and training time for a database of a given size. The model size is exact (the model
// layout's own arithmetic); the rest are coefficients fitted to benchmark runs, the bench named
// beside each, measured on a 2-core AMD EPYC VM (23.5 GiB, Node 20, Redis 7 with redis.conf).
import { listsFor, modelBytes } from '../engine/model/layout.js';
import { numericRowsBits } from '../engine/model/row-index.js';
import { searchBudget } from '../engine/training/search.js';

export interface PlanInput {
  users: number;
  items: number;
  ratings: number;
  factors: number;
  // The settings a training and a serving process read (src/config/env.ts).
  listLength: number;
  userListsSeconds: number;
  searchSeconds: number;
  searchMaxRatings: number;
  userListCache: number;
  itemIndexMinItems: number;
}

export interface Plan {
  model: { bytes: number; listedUsers: number };
  // Bytes of the database in Redis, by part; `beforeTraining` holds the ratings log, `trained` the
  // snapshot it is compacted into and the stored models.
  redis: {
    ratingsStore: number;
    users: number;
    items: number;
    log: number;
    snapshot: number;
    models: number;
    beforeTraining: number;
    trained: number;
  };
  recd: { model: number; userIndex: number; itemIndex: number; itemRows: number; listCache: number; base: number; total: number };
  // A training process's peak (it holds the model it makes and the ratings it trains on).
  training: { peak: number };
  seconds: { prepare: number; als: number; itemLists: number; userLists: number; publish: number; search: number; total: number };
}

const MIB = 2 ** 20;

// Redis. bench/scale/scale.ts on one Redis (5M ratings of 250k and of 1M users):
// the 750k users more cost 401 bytes each, of which the users' index and id list 97 (9.7 bytes a
// rating each at 5M ratings of 1M users) and the rest the two keys of each user's ratings.
export const USER_INDEX_BYTES = 97;
export const USER_RATINGS_KEYS_BYTES = 304;
// Items' records (two properties) and indexes: ~3.5 bytes a rating at 5M ratings of 100k items.
export const ITEM_BYTES = 180;
// The ratings log a training replays (28.0 bytes a rating, the same at 5M and 20M), compacted by a
// training into the ratings snapshot (21.0 bytes a rating, after the 1M-rating training).
export const LOG_BYTES_PER_RATING = 28;
export const SNAPSHOT_BYTES_PER_RATING = 21;
// A user's ratings are a sorted set and a hash (docs/api-choices.md, Ratings), listpacks up to Redis's
// default 128 entries, hash tables and a skip list beyond. bench/redis/ratings-writes.ts: 39 bytes a rating
// in listpacks, 137 past the limit. The scale runs above predate this store (a set and a string per
// user, ~39 bytes a rating): their other parts are what the coefficients here take from them.
export const LISTPACK_ENTRIES = 128;
export const LISTPACK_BYTES_PER_RATING = 39;
export const HASHTABLE_BYTES_PER_RATING = 137;
// Models stored in Redis, in model bytes: the current one and the previous one's parts still held.
// bench/scale/scale.ts on one Redis (1M ratings) and bench/scale/scale.ts (20M, one Redis): Redis grew by 1.25 and
// 1.36 models once trained (less the log compacted); the 5M run's 2.5 is left out (see docs/scale.md).
export const MODELS_KEPT = 1.5;

// recd per serving process. bench/http/reco-synthetic.ts at 1M users, the shipped defaults and
// bench/http/reco-synthetic.ts at 100k users (git 93eddb6, RSS after the load runs,
// 1,145 and 614 MiB) less what is counted below: 418 and 460 MiB of code, heaps, thread pools and
// what the process's own trainings left with glibc.
export const BASE_BYTES = 440 * MIB;
// Item rows copied into WebAssembly memory with their scratch (26 MB at 100k × 32: bench/RESULTS.md,
// "Memory: where recd's resident memory goes").
export const ITEM_ROW_COPIES = 2;
// A user's list made on request and cached (RECD_USER_LIST_CACHE): 1.1 KB of RSS at 128 items
// (bench/http/reco-synthetic.ts, lists made on request).
export const CACHED_LIST_BYTES_PER_ITEM = 1100 / 128;

// Training, fitted to the service's own first trainings in bench/scale/scale.ts (search off, 32
// factors, lists of 128, every user listed; bench/RESULTS.md, "Training at scale: in the service, by
// phase, and the capacity plan"), seconds of each phase from the training's log: 1M ratings (50k users × 20k items),
// 5M (250k × 100k), 20M (1M × 100k; two runs, which differed by 20 % on this shared VM).
// Reading the ratings log from Redis and preparing it (replay, CSR both ways): 1.4–1.9 µs a rating.
export const READ_SECONDS_PER_RATING = 0.3e-6;
export const PREPARE_SECONDS_PER_RATING = 1.2e-6;
// The ALS fit and its loss, a rating and factor: 1.3–2.2·10⁻⁷.
export const ALS_SECONDS_PER_RATING_FACTOR = 1.7e-7;
// Item lists: below RECD_ITEM_INDEX_MIN_ITEMS every pair of items is scored (7.2 s at 20k items);
// with the item index, its lists, rounds of neighbours of neighbours until the lists settle and the
// co-rated items, per item (35.6, 64.1 and 62.6 s at 100k items; 4, 6 and 6 rounds).
export const ITEM_LIST_SECONDS_PER_ITEM_ITEM_FACTOR = 7.2 / (2e4 * 2e4 * 32);
export const INDEXED_ITEM_LIST_SECONDS_PER_ITEM_FACTOR = 0.5e-3 / 32;
// A listed user, a part that does not grow with the items and one that does (the scan until its early
// stop): 38.8 µs at 20k items, 59–78 µs at 100k.
export const USER_LIST_SECONDS_PER_FACTOR = 30e-6 / 32;
export const USER_LIST_SECONDS_PER_ITEM_FACTOR = 0.39e-9 / 32;
// Publishing the model in 8 MiB parts (AOF on): 1.9 s at 43 MiB, 5.6 at 216, 17.9–26.1 at 676.
export const PUBLISH_SECONDS = 0.5;
export const PUBLISH_SECONDS_PER_MIB = 0.03;
// A training process's peak RSS (VmHWM: 415, 1,462 and 3,492 MiB): the model it makes, a part per
// rating (the log as read, the ratings in CSR both ways, the compacted snapshot) and one per item (the
// item lists' passes) over a base; fitted to the three runs exactly.
export const TRAINING_BASE_BYTES = 153 * MIB;
export const TRAINING_BYTES_PER_RATING = 110;
export const TRAINING_BYTES_PER_ITEM = 6000;

// Ratings held by users of more than `limit` ratings, for ratings spread as bench/lib/synthetic.ts
// spreads them (its power law: the user of activity rank r has 1 + extra(r), extra(r) ≈ scale / (r + r0),
// the most active min(10,000, items / 10)): at 20 ratings a user about half the ratings.
export function ratingsOfUsersOver(limit: number, users: number, items: number, ratings: number): number {
  const extra = ratings - users;
  if (extra <= 0) return 0;
  const cap = Math.max(Math.ceil(extra / users), Math.min(10_000, Math.floor(items / 10)));
  const top = (r0: number) => (extra * Math.log1p(1 / r0)) / Math.log1p(users / r0);
  let lo = 1e-9,
    hi = 1e15;
  for (let k = 0; k < 200; k++) {
    const mid = Math.sqrt(lo * hi);
    if (top(mid) > cap) lo = mid;
    else hi = mid;
  }
  const scale = extra / Math.log1p(users / hi);
  const heavy = Math.min(users, Math.max(0, scale / limit - hi));
  return Math.min(ratings, heavy + scale * Math.log1p(heavy / hi));
}

export function plan(p: PlanInput): Plan {
  const perUserList = (USER_LIST_SECONDS_PER_FACTOR + USER_LIST_SECONDS_PER_ITEM_FACTOR * p.items) * p.factors;
  const listedUsers = p.listLength === 0 ? 0 : Math.min(p.users, Math.floor(p.userListsSeconds / perUserList));
  const bytes = modelBytes({
    factors: p.factors,
    users: p.users,
    items: p.items,
    itemList: p.listLength,
    userList: p.listLength,
    trainedItems: p.items,
    lists: listsFor(p.items, p.itemIndexMinItems),
    listedUsers,
  });

  const heavy = ratingsOfUsersOver(LISTPACK_ENTRIES, p.users, p.items, p.ratings);
  const ratingsStore = heavy * HASHTABLE_BYTES_PER_RATING + (p.ratings - heavy) * LISTPACK_BYTES_PER_RATING;
  const users = p.users * (USER_INDEX_BYTES + USER_RATINGS_KEYS_BYTES);
  const items = p.items * ITEM_BYTES;
  const log = p.ratings * LOG_BYTES_PER_RATING;
  const snapshot = p.ratings * SNAPSHOT_BYTES_PER_RATING;
  const models = bytes * MODELS_KEPT;

  const recd = {
    model: bytes,
    userIndex: 12 * 2 ** numericRowsBits(p.users),
    itemIndex: 12 * 2 ** numericRowsBits(p.items),
    itemRows: p.items * p.factors * 4 * ITEM_ROW_COPIES,
    listCache: Math.min(p.userListCache, p.users - listedUsers) * p.listLength * CACHED_LIST_BYTES_PER_ITEM,
    base: BASE_BYTES,
  };

  const indexed = listsFor(p.items, p.itemIndexMinItems) > 0;
  const seconds = {
    prepare: (READ_SECONDS_PER_RATING + PREPARE_SECONDS_PER_RATING) * p.ratings,
    als: ALS_SECONDS_PER_RATING_FACTOR * p.ratings * p.factors,
    itemLists:
      p.listLength === 0
        ? 0
        : (indexed ? INDEXED_ITEM_LIST_SECONDS_PER_ITEM_FACTOR * p.items : ITEM_LIST_SECONDS_PER_ITEM_ITEM_FACTOR * p.items * p.items)
          * p.factors,
    userLists: listedUsers * perUserList,
    publish: PUBLISH_SECONDS + (PUBLISH_SECONDS_PER_MIB * bytes) / MIB,
    // The search's budget for the ratings its trials sample (none of the runs above searched): what to
    // plan for, though it may end sooner when validation stops improving.
    search: p.searchSeconds === 0 ? 0 : searchBudget(Math.min(p.ratings, p.searchMaxRatings), p.searchSeconds),
  };

  return {
    model: { bytes, listedUsers },
    redis: {
      ratingsStore,
      users,
      items,
      log,
      snapshot,
      models,
      beforeTraining: ratingsStore + users + items + log,
      trained: ratingsStore + users + items + snapshot + models,
    },
    recd: { ...recd, total: recd.model + recd.userIndex + recd.itemIndex + recd.itemRows + recd.listCache + recd.base },
    training: { peak: TRAINING_BASE_BYTES + bytes + TRAINING_BYTES_PER_RATING * p.ratings + TRAINING_BYTES_PER_ITEM * p.items },
    seconds: {
      ...seconds,
      total: seconds.prepare + seconds.als + seconds.itemLists + seconds.userLists + seconds.publish + seconds.search,
    },
  };
}
