// What a training run sends to its pool tasks and gets back: the shapes the coordinator (trainer.ts,
// pool.ts, scheduler.ts) and the worker (worker.ts) both import.
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { AlsWeights } from '../model/als-terms.js';
import type { ModelDims } from '../model/layout.js';
import type { LogEntry, Snapshot } from './ratings-replay.js';
import type { HeldOut } from '../../../native-free-kernels/validation.js';

// The objective's weights (regularization, alpha, unobserved, regExponent) are model/als-terms.ts's.
export interface AlsParams extends AlsWeights {
  factors: number;
  iterations: number;
  cgSteps: number;
  listLength: number; // of each item's and user's precomputed list
  userListsSeconds: number; // time for users' lists, most recently active first
  indexMinItems: number; // catalogues of at least this many items get an item index
  popularityHalfLifeSeconds: number;
  seed: number;
}

export interface PrepareInput {
  snapshot: Snapshot | undefined;
  log: LogEntry[];
  users: number; // the catalogue's index high-water marks: every factor matrix covers them
  items: number;
  params: AlsParams;
  now: number;
  // The last model, when a retrain without a search may start from its factors (init-factors.ts warmFactors).
  start?: SharedArrayBuffer | undefined;
}

export interface Prepared {
  model: SharedArrayBuffer;
  warm: boolean; // the factors start from `start`'s
  byUser: Csr; // SharedArrayBuffer-backed
  byItem: Csr;
  compacted: Uint8Array; // the compacted ratings, encoded (encodeSnapshot) in shared memory: the next run's snapshot
  ratings: number;
  users: number; // users with at least one rating
  recent: SharedArrayBuffer; // uint32 rows of the users with ratings, the most recently active first
}

export interface GramInput {
  model: SharedArrayBuffer;
  side: 'users' | 'items';
  rowStart: number;
  rowEnd: number;
  dst: SharedArrayBuffer; // f*f float64: the Gram matrix of rows [rowStart, rowEnd) (the coordinator sums the parts)
}

export interface HalfStepInput {
  model: SharedArrayBuffer;
  side: 'users' | 'items'; // the factors recomputed
  m: Csr; // byUser for users, byItem for items
  gram: SharedArrayBuffer; // of the other side
  rowStart: number;
  rowEnd: number;
  params: AlsParams;
}

export interface FinishInput {
  model: SharedArrayBuffer;
  byUser: Csr;
  params: AlsParams;
}

import type { SharedRows } from '../../../native-free-kernels/score-rows.js';

export interface ItemListsInput {
  model: SharedArrayBuffer;
  sharedRows: SharedRows | undefined; // with an item index: the rows its rankings score (sharedRows)
  rowStart: number;
  rowEnd: number;
  rows?: SharedArrayBuffer; // the rows to list (Uint32Array), [rowStart, rowEnd) indexing it; absent: every row
}

// Items of each list a round of neighbours of neighbours reads (refine-lists.ts, with reverse
// neighbours): on the synthetic catalogue (bench/kernels/item-lists-recall.ts) a round at 16 lifts
// recall@64 of lists made through the index from 0.887 to 0.910 at 100k items (forward neighbours
// alone) and ~0.75 to ~0.81 at 1M items, for a fifth of the index's time; further rounds (lists.ts)
// add a little, and cost little as they refine only rows whose neighbourhood changed. Rounds until
// settled at 24 reach recall@64 0.849 at 1M items against 0.826 at 16, for about 1.3 times the time.
export const refineFanout = (listLength: number): number => Math.min(24, listLength);

export interface ListHeadsInput {
  model: SharedArrayBuffer;
  heads: SharedArrayBuffer; // written: the first refineFanout items of every item's list
  reverse: SharedArrayBuffer; // written: the items whose heads hold each item
  last?: { heads: SharedArrayBuffer; reverse: SharedArrayBuffer }; // those of the previous round
  stale: SharedArrayBuffer; // written: uint8 per item, 1 for the rows the round must refine
}

export interface RefineListsInput {
  model: SharedArrayBuffer;
  heads: SharedArrayBuffer; // the first refineFanout items of every item's list before the round (listHeads)
  reverse: SharedArrayBuffer; // and the items whose heads hold each item
  stale: SharedArrayBuffer; // the rows to refine (listHeads)
  sharedRows: SharedRows; // the rows the item lists were ranked on, whose norms the round reads
  rowStart: number;
  rowEnd: number;
}

// Co-rated candidates (corated-lists.ts) for the items of at most CO_RATED_MAX_RATERS raters, from
// raters of at most CO_RATED_MAX_USER_ITEMS items: items rated by the same one or two users have
// nearly parallel rows, and their exact top is among what those users rated. On the synthetic 1M
// catalogue after the rounds: recall@64 against the exact ranking in the lists' arithmetic 0.948 ->
// 0.955 with items of one rater, 0.958 with two, for 75 and 138 s of one loaded thread (bench/kernels/item-lists-recall.ts);
// the cost lies on the items of heavy raters, hence the cap (the most active synthetic user rates 10,001).
export const CO_RATED_MAX_RATERS = 2;
export const CO_RATED_MAX_USER_ITEMS = 20_000;

export interface CoRatedListsInput {
  model: SharedArrayBuffer;
  byUser: Csr;
  byItem: Csr;
  sharedRows: SharedRows; // as RefineListsInput's
  rowStart: number;
  rowEnd: number;
}

export interface UserListsInput {
  model: SharedArrayBuffer;
  byUser: Csr; // what each user rated, left out of their list
  users: SharedArrayBuffer; // uint32 user rows; those at [from, to) get their lists
  sharedRows: SharedRows; // the rows rankings score (sharedRows), which list the users
  from: number;
  to: number;
  out: SharedArrayBuffer; // (to - from) × userList uint32: users[from + k]'s list at k · userList
}

export interface IndexCentroidsInput {
  model: SharedArrayBuffer;
  seed: number;
}

export interface IndexAssignInput {
  model: SharedArrayBuffer;
  assign: SharedArrayBuffer; // items × uint32, rows [rowStart, rowEnd) written
  rowStart: number;
  rowEnd: number;
}

// Each item's (property, value) features as CSR (services/catalogue/catalogue-view.ts features()).
export interface ItemFeatures {
  indptr: Uint32Array; // items + 1
  indices: Uint32Array;
  count: number;
}

export interface ExtendInput {
  model: SharedArrayBuffer;
  features: ItemFeatures;
}

export interface Extended {
  model: SharedArrayBuffer;
  dims: ModelDims;
  targets: number; // items without ratings, given factors
  targetRows: SharedArrayBuffer; // their rows (Uint32Array)
  fromFeatures: number; // of which from items sharing property values (the rest: the mean item)
}

export interface TableInput {
  model: SharedArrayBuffer;
  kind: 'item_to_items' | 'profile_to_items';
  amt: number;
  rowStart: number;
  rowEnd: number;
  dst: SharedArrayBuffer; // rows × amt uint32, 0xffffffff where a row has fewer
}

// The parameter search's tasks (search.ts, search-tasks.ts).
export interface SplitInput {
  byUser: Csr;
  fraction: number; // of each validation user's entries held out
  seed: number;
  maxRatings: number; // trials train on a sample of users with at most this many ratings
  maxUsers: number; // validation users at most
  quantiles: number[]; // of the rating values, for the confidence shifts the search tries
}

export interface ValidationData {
  byUser: Csr; // the training part, SharedArrayBuffer-backed
  byItem: Csr;
  held: HeldOut;
  threshold: number; // relevant held-out values are at least this
  shifts: number[]; // the values at SplitInput.quantiles
  ratings: number; // in the training part
  rated: number; // users with ratings in it
}

export interface ConfidenceInput {
  m: Csr;
  shift: number;
  floor: number;
  inPlace: boolean;
}

export interface TrialModelInput {
  users: number;
  items: number;
  factors: number;
  seed: number;
}

export interface RefactorInput {
  model: SharedArrayBuffer;
  factors: number;
  seed: number;
}

export interface ValidateInput {
  model: SharedArrayBuffer | undefined; // undefined: popularity
  data: ValidationData;
  from: number;
  to: number;
  k: number;
}

// Writes the lists of the users at [from, to) of `users` (uint32 rows) into the model (lists.ts).
// Lists of users[from, to) into out (users[from + k]'s at k · userList).
export type UserLister = (users: SharedArrayBuffer, from: number, to: number, out: SharedArrayBuffer) => Promise<void>;

// The item index's k-means (worker.ts indexCentroids, extend-tasks.ts) runs on this many sample rows
// per list: enough for stable centroids, far cheaper than all rows.
export const SAMPLE_PER_LIST = 48;
export const KMEANS_ITERATIONS = 8;
