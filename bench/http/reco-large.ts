// Item-to-items on a synthetic catalogue of 1,000,000 items (issue 6: p99 ≤ 50 ms at 64 connections),
// against the bare uWebSockets.js hello-world in the same run, with a different random item per
// request so no cached ranking helps.
//
//   npx tsc -p . && node dist/bench/http/reco-large.js      (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// Data, uploaded over HTTP with PUT ratings-bulk/ (16,384 a request, 4 clients at once): items 1 … N
// in planted groups of GROUP_SIZE (item i is in group (i − 1) mod N/GROUP_SIZE), users 1 … U users who each rate
// PER_USER items of one group, in overlapping windows so every item gets about the same number of
// ratings. Items exist because ratings name them (no properties). Then an explicit retrain
// (bench/lib/retrain.ts) at the service's default factors unless RECD_ALS_FACTORS says otherwise.
//
// Reported besides the load runs: the share of the exact top 10 (every item scanned) that the item
// index finds, and the time per ranking of each, on the served model read from Redis; and the share
// of each answer's items that lie in the query item's planted group.
// Also: BENCH_LARGE_ITEMS (1,000,000), BENCH_LARGE_USERS (items / 4), and bench/lib/settings.ts's settings.
import { mulberry32 } from '../../native-free-kernels/random.js';
import { call, ok } from '../lib/api.js';
import { runRecoBench, type Scenario } from '../lib/reco-bench.js';
import { modelRecallLines } from '../lib/model-recall.js';
import { fmt } from '../lib/report.js';
import { retrain, type Trained } from '../lib/retrain.js';

const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
};
const ITEMS = int('BENCH_LARGE_ITEMS', 1_000_000);
const USERS = int('BENCH_LARGE_USERS', Math.ceil(ITEMS / 4));
const GROUP_SIZE = 500;
const GROUPS = Math.max(1, Math.floor(ITEMS / GROUP_SIZE));
const PER_USER = 12;
const BATCH = 16_384;
const CLIENTS = 4;
const FACTORS = process.env.RECD_ALS_FACTORS || '32';
const FIXED_ITEM = 4242;
const SAMPLED = 200; // items whose rankings are checked for the extra lines

const groupOf = (item: number) => (item - 1) % GROUPS;

// User u + 1 rates PER_USER items of group u mod GROUPS, from a window that moves 4 items per user.
function ratingsOf(u: number): { user_id: number; item_id: number; rating: number; timestamp: number }[] {
  const g = u % GROUPS,
    k = Math.floor(u / GROUPS);
  const perGroup = Math.ceil(ITEMS / GROUPS);
  const out = [];
  for (let j = 0; j < PER_USER; j++) {
    const item = 1 + g + GROUPS * ((4 * k + j) % perGroup);
    if (item <= ITEMS) out.push({ user_id: u + 1, item_id: item, rating: 6 + ((u + j) % 5), timestamp: 1_700_000_000 + u });
  }
  return out;
}

interface Setup {
  ratingsSeconds: number;
  ratings: number;
  trained: Trained;
  dbId: string;
}

async function upload(base: string, token: string): Promise<Setup> {
  const t0 = performance.now();
  let next = 0,
    ratings = 0;
  const client = async () => {
    for (;;) {
      const batch = [];
      while (batch.length < BATCH && next < USERS) batch.push(...ratingsOf(next++));
      if (batch.length === 0) return;
      ratings += batch.length;
      await ok(base, token, 'PUT', '/v1/ratings-bulk/', { ratings: batch });
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const ratingsSeconds = (performance.now() - t0) / 1000;
  process.stderr.write(`${ratings} ratings of ${USERS} users on ${ITEMS} items uploaded in ${ratingsSeconds.toFixed(1)} s\n`);
  const trained = await retrain(base, token, FACTORS, ratings);
  const dbId = (await ok(base, token, 'GET', '/v1/databases/current/')).id as string;
  return { ratingsSeconds, ratings, trained, dbId };
}

const path = (item: number) => `/v1/recommendation/items/${item}/items/`;

const SCENARIOS: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/' },
  {
    id: 'r',
    label: `item-to-items of a random item of ${ITEMS.toLocaleString('en-US')} per request \`GET ${path(0).replace('/0/', '/<random>/')}\``,
    target: 'recd',
    method: 'GET',
    path: path(FIXED_ITEM),
    randomPath: { prefix: '/v1/recommendation/items/', max: ITEMS, suffix: '/items/' },
    goal: { p99ms: 50 },
  },
  {
    id: 'c',
    label: `item-to-items of one item (its ranking cached) \`GET ${path(FIXED_ITEM)}\``,
    target: 'recd',
    method: 'GET',
    path: path(FIXED_ITEM),
  },
];

function check(sc: Scenario, json: any): string {
  const ids = (json?.items_id ?? []) as number[];
  if (sc.target !== 'recd') return '';
  const same = ids.filter((i) => groupOf(i) === groupOf(FIXED_ITEM)).length;
  const problems = [ids.length === 0 ? 'no items' : '', ids.includes(FIXED_ITEM) ? 'the item itself' : ''].filter(Boolean);
  return `${ids.length} items, ${same} in item ${FIXED_ITEM}'s planted group${problems.length > 0 ? `; **PROBLEM: ${problems.join('; ')}**` : '; checks passed'}`;
}

// The index and the item lists against the full scan on the served model, and planted-group precision over HTTP.
async function extra(base: string, token: string, setup: Setup, redis: { url: string }): Promise<string[]> {
  const lines = await modelRecallLines(redis.url, setup.dbId, SAMPLED);
  const rand = mulberry32(11);
  const precision: number[] = [];
  for (let k = 0; k < SAMPLED; k++) {
    const item = Math.floor(rand() * ITEMS);
    const res = await call(base, 'GET', path(item), undefined, token);
    const ids = (res.json?.items_id ?? []) as number[];
    if (ids.length > 0) precision.push(ids.filter((i) => groupOf(i) === groupOf(item)).length / ids.length);
  }
  const mean = precision.reduce((s, x) => s + x, 0) / Math.max(1, precision.length);
  return [
    ...lines,
    `- Over HTTP, ${precision.length} random items: on average ${fmt(100 * mean, 1)} % of the recommended items lie in the query item's planted group of ${GROUP_SIZE} (random: ${fmt(100 / GROUPS, 2)} %).`,
  ];
}

await runRecoBench<Setup>({
  name: 'reco-large',
  factors: FACTORS,
  scenarios: SCENARIOS,
  setup: upload,
  check,
  extra,
  meta: (setup) => ({
    Data: `synthetic: ${ITEMS.toLocaleString('en-US')} items in ${GROUPS.toLocaleString('en-US')} planted groups of ${GROUP_SIZE}, ${USERS.toLocaleString('en-US')} users rating ${PER_USER} items of one group each (${setup.ratings.toLocaleString('en-US')} ratings), uploaded in ${setup.ratingsSeconds.toFixed(1)} s (PUT ratings-bulk/, ${BATCH.toLocaleString('en-US')} a request, ${CLIENTS} clients)`,
  }),
});
