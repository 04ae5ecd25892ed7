// Speed of the precomputed-list kernels (native-free-kernels/lists.ts), single thread, against what
// runs today: per user, dotAt over every item then topKTo (serving's ranking for one user), and
// per item, cosineScoresTo over every item then topKTo (serving's similar-items ranking). Random factors: 100,000 items × 32 for users (2,048 users, ~50 rated
// items each; 1,024 of them timed, drawn at random), 20,000 items × 32 for item lists; lists of 128.
// Every run is timed twice, the rounds interleaved, and the faster round reported (the machine is
// shared, so compare within one run).
// Run: npm run build && node dist/bench/kernels/lists-speed.js
import os from 'node:os';
import { dotAt } from '../../native-free-kernels/dot.js';
import { itemListsTo, listsScratchLength, normOrderOf, userListsScratchLength, userListsTo } from '../../native-free-kernels/lists.js';
import { cosineScoresTo } from '../../native-free-kernels/scores.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import * as ref from '../../native-free-kernels/reference/lists.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { topKTo } from '../../native-free-kernels/top-k.js';

const F = 32,
  N = 128,
  ITEMS = 100_000,
  USERS = 2048,
  TIMED_USERS = 1024,
  RATED = 50,
  LIST_ITEMS = 20_000,
  ITEM_ROWS = 2048;
const BLOCKS = [4, 8, 16];
const TWIN_QUERIES = 16;
const ROUNDS = 2;

const next = mulberry32(42);
const randomRows = (rows: number) => Float32Array.from({ length: rows * F }, () => next() - 0.5);
function normsOf(factors: Float32Array, rows: number): Float32Array {
  const out = new Float32Array(rows);
  rowNormsTo(out, factors, rows, F);
  return out;
}

const itemFactors = randomRows(ITEMS),
  itemNorms = normsOf(itemFactors, ITEMS);
const userFactors = randomRows(USERS);
// Random rows have nearly equal norms, so userListsTo scans every item here: its early stop is measured on trained factors by user-lists-speed.ts.
const byNorm = normOrderOf(itemFactors, itemNorms, ITEMS, F);
// ~RATED random items per user (a repeat now and then, which the kernels allow).
const indptr = Uint32Array.from({ length: USERS + 1 }, (_, u) => u * RATED);
const indices = Uint32Array.from({ length: USERS * RATED }, () => Math.floor(next() * ITEMS));
// Distinct users in random order (a partial shuffle of all of them).
const shuffled = Array.from({ length: USERS }, (_, u) => u);
for (let k = 0; k < TIMED_USERS; k++) {
  const pick = k + Math.floor(next() * (USERS - k));
  [shuffled[k], shuffled[pick]] = [shuffled[pick]!, shuffled[k]!];
}
const timedUsers = Uint32Array.from(shuffled.slice(0, TIMED_USERS));
const listItems = randomRows(LIST_ITEMS),
  listNorms = normsOf(listItems, LIST_ITEMS);

const userDst = new Uint32Array(USERS * N),
  baselineDst = new Uint32Array(USERS * N);

// Serving's ranking for one user, today: scores of every item by dotAt (NaN for items without
// factors and rated items), then topKTo.
const baselineScores = new Float32Array(ITEMS),
  baselineBest = new Float32Array(N);
function baseline(users: Uint32Array): void {
  for (const u of users) {
    for (let i = 0; i < ITEMS; i++) baselineScores[i] = itemNorms[i] === 0 ? NaN : dotAt(userFactors, u * F, itemFactors, i * F, F);
    for (let c = indptr[u]!; c < indptr[u + 1]!; c++) baselineScores[indices[c]!] = NaN;
    const out = baselineDst.subarray(u * N, u * N + N);
    out.fill(0xffffffff, topKTo(out, baselineBest, baselineScores, ITEMS, N));
  }
}

interface Run {
  name: string;
  queries: number; // users or item rows listed per call
  macs: number; // multiply-adds per call (every query against every candidate)
  call: () => void;
}

const userMacs = (users: number) => users * ITEMS * F;
const itemMacs = (rows: number) => rows * LIST_ITEMS * F;
const twinUsers = timedUsers.subarray(0, TWIN_QUERIES);
const itemDst = new Uint32Array(LIST_ITEMS * N),
  itemBaselineDst = new Uint32Array(LIST_ITEMS * N);
const itemScores = new Float32Array(LIST_ITEMS);
function itemBaseline(rows: number): void {
  for (let i = 0; i < rows; i++) {
    cosineScoresTo(itemScores, listItems, listNorms, LIST_ITEMS, F, i);
    const out = itemBaselineDst.subarray(i * N, i * N + N);
    out.fill(0xffffffff, topKTo(out, baselineBest, itemScores, LIST_ITEMS, N));
  }
}
const itemScratch = new Float32Array(listsScratchLength(LIST_ITEMS, F, N));
const runs: Run[] = [
  {
    name: 'users: per-user baseline (dotAt + topKTo)',
    queries: TIMED_USERS,
    macs: userMacs(TIMED_USERS),
    call: () => baseline(timedUsers),
  },
  ...BLOCKS.map((block) => {
    const scratch = new Float32Array(userListsScratchLength(F, N, block));
    return {
      name: `users: userListsTo, block ${block}`,
      queries: TIMED_USERS,
      macs: userMacs(TIMED_USERS),
      call: () => userListsTo(userDst, N, timedUsers, userFactors, USERS, byNorm, F, indptr, indices, scratch, block),
    };
  }),
  {
    name: `users: reference twin (${TWIN_QUERIES} users)`,
    queries: TWIN_QUERIES,
    macs: userMacs(TWIN_QUERIES),
    call: () => ref.userListsTo(userDst, N, twinUsers, userFactors, USERS, byNorm, F, indptr, indices, new Float32Array(0)),
  },
  {
    name: `items: per-item baseline (cosineScoresTo + topKTo, rows [0, ${ITEM_ROWS}) of ${LIST_ITEMS})`,
    queries: ITEM_ROWS,
    macs: itemMacs(ITEM_ROWS),
    call: () => itemBaseline(ITEM_ROWS),
  },
  {
    name: `items: itemListsTo, block 4 (rows [0, ${ITEM_ROWS}) of ${LIST_ITEMS})`,
    queries: ITEM_ROWS,
    macs: itemMacs(ITEM_ROWS),
    call: () => itemListsTo(itemDst, N, listItems, listNorms, LIST_ITEMS, F, 0, ITEM_ROWS, itemScratch),
  },
  {
    name: `items: reference twin (${TWIN_QUERIES} rows)`,
    queries: TWIN_QUERIES,
    macs: itemMacs(TWIN_QUERIES),
    call: () => ref.itemListsTo(itemDst, N, listItems, listNorms, LIST_ITEMS, F, 0, TWIN_QUERIES, new Float32Array(0)),
  },
];

// Warm-up: each kernel once on a few queries, so the timed rounds run optimised code.
const few = timedUsers.subarray(0, 8);
baseline(few);
for (const block of BLOCKS)
  userListsTo(
    userDst,
    N,
    few,
    userFactors,
    USERS,
    byNorm,
    F,
    indptr,
    indices,
    new Float32Array(userListsScratchLength(F, N, block)),
    block,
  );
itemListsTo(itemDst, N, listItems, listNorms, LIST_ITEMS, F, 0, 8, itemScratch);
itemBaseline(8);

const times = runs.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) {
  runs.forEach((run, k) => {
    const t = performance.now();
    run.call();
    times[k]!.push(performance.now() - t);
    console.error(`round ${round + 1}: ${run.name}: ${(times[k]!.at(-1)! / 1000).toFixed(2)} s`);
  });
}

// The lists of block 4 against the baseline's, both afresh (the twin wrote some rows since): dotAt
// sums in four partial sums, so near-equal scores may swap.
userListsTo(userDst, N, timedUsers, userFactors, USERS, byNorm, F, indptr, indices, new Float32Array(userListsScratchLength(F, N)));
baseline(timedUsers);
let same = 0;
for (const u of timedUsers) if (userDst.subarray(u * N, u * N + N).every((x, p) => x === baselineDst[u * N + p])) same++;

const perQuery = (k: number) => Math.min(...times[k]!) / runs[k]!.queries;
const lines = [
  `Single thread; Node ${process.version}; ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores (shared). f = ${F}, n = ${N}.`,
  `Users: ${ITEMS.toLocaleString('en-US')} items, ${USERS.toLocaleString('en-US')} users with ${RATED} rated items each, ${TIMED_USERS.toLocaleString('en-US')} of them listed. Items: ${LIST_ITEMS.toLocaleString('en-US')} items, lists of rows [0, ${ITEM_ROWS}).`,
  `Best of ${ROUNDS} interleaved rounds; multiply-adds count every query against every candidate. Speed-up: against the per-user baseline (users) or the per-item baseline (items).`,
  '',
  '| run | queries | ms per query | GMAC/s | speed-up | rounds (s) |',
  '|---|---:|---:|---:|---:|---|',
];
runs.forEach((run, k) => {
  const against = run.name.startsWith('users') ? 0 : runs.findIndex((r) => r.name.startsWith('items: per-item baseline'));
  const gmacs = run.macs / Math.min(...times[k]!) / 1e6;
  const rounds = times[k]!.map((t) => (t / 1000).toFixed(2)).join(', ');
  lines.push(
    `| ${run.name} | ${run.queries.toLocaleString('en-US')} | ${perQuery(k).toFixed(3)} | ${gmacs.toFixed(2)} | ${(perQuery(against) / perQuery(k)).toFixed(2)}× | ${rounds} |`,
  );
});
lines.push(
  '',
  `userListsTo (block 4) gives the baseline's exact lists for ${same} of ${TIMED_USERS} users${same < TIMED_USERS ? ' (the others: near-equal scores swapped, as dotAt sums in four partial sums)' : ''}.`,
);
console.log(lines.join('\n'));
