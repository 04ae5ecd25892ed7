// Recommendations over HTTP on a synthetic catalogue with power-law popularity (bench/lib/synthetic.ts), requests drawn like traffic, against a bare uWebSockets.js hello-world in the same run.
//
//   npm run build && node dist/bench/http/reco-synthetic.js      (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// Data (bench/lib/synthetic.ts): BENCH_SYNTH_ITEMS (100,000) items with `category` (unicode32, 50 values,
// Zipf) and `year` (int16, 1950–2025), BENCH_SYNTH_USERS (1,000,000) users, BENCH_SYNTH_RATINGS
// (20,000,000) ratings 1–10; Zipf-like item popularity and user activity, seeded (BENCH_SYNTH_SEED).
// Uploaded over HTTP as a client would (bench/lib/synthetic-upload.ts: BENCH_SYNTH_BATCH ratings a
// request, BENCH_SYNTH_IN_FLIGHT requests at once, BENCH_SYNTH_CODEC json or pickle), then trained
// (bench/lib/retrain.ts; recd also trains on its own during the upload, at the 500 · 2^k thresholds).
// At the full size the training takes many minutes: BENCH_RETRAIN_TIMEOUT_SECONDS (600) bounds each wait,
// e.g. BENCH_RETRAIN_TIMEOUT_SECONDS=7200. Factors: RECD_ALS_FACTORS (default 32, the service's default).
//
// Scenarios, interleaved per round as in reco.ts (bench/lib/reco-bench.ts: autocannon and wrk, 64
// connections, the hello-world h measured in the same run, median req/s, p50 and p99 over the rounds,
// non-2xx and errors):
//   I  item-to-items, a random item of all per request
//   U  user-to-items, a random user of all per request, ?exclude_rated_items=true
//   F  item-to-items, a random item of all per request, two filters (the commonest category, year ≥ 1990)
//   S  session-to-items, a random session per request: 5 ratings of random items of all (2,000 seeded bodies)
//   i, u  the hottest item and the most active user, every request: the cached path, beside the random ones
// BENCH_RECO_SCENARIOS=h,I,U (a subset; h always runs), BENCH_RECO_PIPELINED=0 (no pipelining-10 runs of h
// and i), and bench/lib/settings.ts's BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS,
// BENCH_WRK, BENCH_QUIET_*, BENCH_RECD_LOG_LEVEL, BENCH_NODE_ARGS, BENCH_OUTPUT_DIR (bench/lib/processes.ts).
// BENCH_RECD_CLI_B compares two builds as in reco.ts (each gets the same upload).
//
// The item-to-items variant on a 1,000,000-item catalogue:
//   BENCH_SYNTH_ITEMS=1000000 BENCH_SYNTH_USERS=200000 BENCH_SYNTH_RATINGS=5000000 BENCH_RECO_SCENARIOS=h,I \
//     node dist/bench/http/reco-synthetic.js
// (at 5M ratings over 1M items, a third of the items have no rating: ml_new_items gives them factors
// from their properties).
//
// The report also gives the upload's seconds and rate, the training's seconds (the model's metadata and
// the task records), the served model's bytes, and recd's RSS after training and after the load runs.
// Progress goes to stderr, the markdown report to stdout. Small check run:
//   BENCH_SYNTH_ITEMS=5000 BENCH_SYNTH_USERS=20000 BENCH_SYNTH_RATINGS=300000 BENCH_SECONDS=3 BENCH_ROUNDS=1 node dist/bench/http/reco-synthetic.js
import { ok } from '../lib/api.js';
import { sessionBodies } from '../../test/harness/random-sessions.js';
import { modelRecallLines } from '../lib/model-recall.js';
import { runRecoBench, type Scenario } from '../lib/reco-bench.js';
import { fmt } from '../lib/report.js';
import { retrain, type Trained } from '../lib/retrain.js';
import { CATEGORIES, FILTERED_CATEGORY, FILTERED_YEAR_FROM, Synthetic, SYNTH_FILTERS, synthSizes } from '../lib/synthetic.js';
import { uploadOptions, uploadSynthetic, type Uploaded } from '../lib/synthetic-upload.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '32';
const SIZES = synthSizes();
const UPLOAD = uploadOptions();
const data = new Synthetic(SIZES);
const ITEMS = SIZES.items;
const USERS = SIZES.users;
const ITEM = data.hottestItem;
const USER = data.mostActiveUser;
const FILTERS = `?${SYNTH_FILTERS}`;
// The session of the check before any load; under load every request sends a new one (load.ts).
const SESSION_CHECK = sessionBodies({ count: 1, ratings: 5, items: ITEMS, seed: 7 })[0]!;
const n = (x: number) => x.toLocaleString('en-US');

const item = (id: number | string, query = '') => `/v1/recommendation/items/${id}/items/${query}`;
const user = (id: number | string) => `/v1/recommendation/users/${id}/items/?exclude_rated_items=true`;

const ALL: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/', pipelined: true },
  {
    id: 'i',
    label: `item-to-items, the hottest item every request \`GET ${item(ITEM)}\``,
    target: 'recd',
    method: 'GET',
    path: item(ITEM),
    pipelined: true,
  },
  {
    id: 'u',
    label: `user-to-items, the most active user every request \`GET ${user(USER)}\` (${n(data.countOf(USER))} ratings)`,
    target: 'recd',
    method: 'GET',
    path: user(USER),
  },
  {
    id: 'I',
    label: `item-to-items, a random item of all ${n(ITEMS)} per request \`GET ${item('<random>')}\``,
    target: 'recd',
    method: 'GET',
    path: item(ITEM),
    randomPath: { prefix: '/v1/recommendation/items/', max: ITEMS, suffix: '/items/' },
    goal: { ratio: 0.5, p99ms: 5 },
  },
  {
    id: 'U',
    label: `user-to-items, a random user of all ${n(USERS)} per request \`GET ${user('<random>')}\``,
    target: 'recd',
    method: 'GET',
    path: user(USER),
    randomPath: { prefix: '/v1/recommendation/users/', max: USERS, suffix: '/items/?exclude_rated_items=true' },
    goal: { ratio: 0.4, p99ms: 10 },
  },
  {
    id: 'F',
    label: `item-to-items with two filters, a random item of all per request \`GET ${item('<random>', FILTERS)}\``,
    target: 'recd',
    method: 'GET',
    path: item(ITEM, FILTERS),
    randomPath: { prefix: '/v1/recommendation/items/', max: ITEMS, suffix: `/items/${FILTERS}` },
    goal: { ratio: 0.35 },
  },
  {
    id: 'S',
    label: `session-to-items, a random session of 5 ratings of random items per request (a new session every request) \`POST /v1/recommendation/sessions/items/\``,
    target: 'recd',
    method: 'POST',
    path: '/v1/recommendation/sessions/items/',
    body: SESSION_CHECK,
    randomSession: { ids: ITEMS, ratings: 5 },
    goal: { ratio: 0.3, p99ms: 15 },
  },
];

const SCENARIOS = (() => {
  const raw = process.env.BENCH_RECO_SCENARIOS;
  if (raw === undefined || raw.trim() === '') return ALL;
  const ids = raw.split(',').map((s) => s.trim());
  const bad = ids.filter((id) => !ALL.some((sc) => sc.id === id));
  if (bad.length > 0)
    throw new Error(`BENCH_RECO_SCENARIOS: unknown scenario ${bad.join(', ')} (use ${ALL.map((sc) => sc.id).join(', ')})`);
  return ALL.filter((sc) => sc.id === 'h' || ids.includes(sc.id));
})();

interface Setup {
  uploaded: Uploaded;
  trained: Trained;
  rated: Set<number>; // the items USER rated
}

async function setup(base: string, token: string): Promise<Setup> {
  process.stderr.write(`synthetic: ${n(ITEMS)} items, ${n(USERS)} users, ${n(SIZES.ratings)} ratings (seed ${SIZES.seed})\n`);
  const uploaded = await uploadSynthetic(base, token, data, UPLOAD);
  const trained = await retrain(base, token, FACTORS, SIZES.ratings);
  return { uploaded, trained, rated: data.itemsOf(USER) };
}

// What each scenario answers once, before any load, checked against the data.
function check(sc: Scenario, json: any, s: Setup): string {
  const ids = (json?.items_id ?? []) as number[];
  const problems: string[] = [];
  if (ids.length === 0) problems.push('no items');
  if ((sc.id === 'i' || sc.id === 'I' || sc.id === 'F') && ids.includes(ITEM)) problems.push('the item itself');
  if (sc.id === 'u') {
    const rated = ids.filter((id) => s.rated.has(id));
    if (rated.length > 0) problems.push(`${rated.length} rated item(s) despite exclude_rated_items`);
  }
  if (sc.id === 'F') {
    const bad = ids.filter(
      (id) => !(id >= 1 && id <= ITEMS) || CATEGORIES[data.categoryOf[id]!] !== FILTERED_CATEGORY || data.yearOf[id]! < FILTERED_YEAR_FROM,
    );
    if (bad.length > 0) problems.push(`${bad.length} item(s) failing the filters: ${bad.slice(0, 10).join(', ')}`);
  }
  const warnings = (json?.warnings ?? []) as string[];
  const named = ids
    .slice(0, 5)
    .map((id) => (id >= 1 && id <= ITEMS ? `${id} (${CATEGORIES[data.categoryOf[id]!]}, ${data.yearOf[id]})` : String(id)));
  return `${ids.length} items${ids.length > 0 ? `, first ${named.join(', ')}` : ''}${warnings.length > 0 ? `; warnings ${JSON.stringify(warnings)}` : ''}${problems.length > 0 ? `; **PROBLEM: ${problems.join('; ')}**` : '; checks passed'}`;
}

function meta(s: Setup): Record<string, string> {
  const u = s.uploaded;
  const m = s.trained.model;
  return {
    Data: `synthetic (bench/lib/synthetic.ts, seed ${SIZES.seed}): ${n(ITEMS)} items with \`category\` (unicode32, ${CATEGORIES.length} values, Zipf; \`${FILTERED_CATEGORY}\` on ${fmt((100 * data.categoryOf.subarray(1).filter((c) => c === 0).length) / ITEMS, 1)} % of the items) and \`year\` (int16, ${fmt((100 * data.yearOf.subarray(1).filter((y) => y >= FILTERED_YEAR_FROM).length) / ITEMS, 1)} % from ${FILTERED_YEAR_FROM}), ${n(USERS)} users, ${n(u.ratings)} ratings 1–10; Zipf-like popularity (hottest item ${ITEM}) and activity (user ${USER} has ${n(data.countOf(USER))} ratings, the most)`,
    Upload: `over HTTP: items in ${u.itemsSeconds.toFixed(1)} s (PUT items-bulk/properties/); ratings in ${u.ratingsSeconds.toFixed(1)} s, **${n(Math.round(u.ratings / u.ratingsSeconds))} ratings/s** (PUT ratings-bulk/, ${u.options.codec}, ${n(u.options.batch)} a request, ${u.options.inFlight} in flight, ${u.requests} requests, ${fmt(u.bytes / 1e6, 0)} MB; generated while sending; recd training on its own meanwhile)`,
    Training: `ALS ${fmt(Number(m.metrics?.training_seconds), 1)} s (the served model's metrics.training_seconds); the explicit ml_model_retrain task ${fmt(s.trained.taskSeconds, 1)} s and the ml_new_items after it ${fmt(s.trained.newItemsSeconds, 1)} s (task records); ${fmt(s.trained.retrainSeconds, 1)} s from the request to a ready database; served model ${n(Number(m.bytes))} bytes (${fmt(Number(m.bytes) / 1024 ** 2, 0)} MiB)`,
  };
}

await runRecoBench<Setup>({
  name: 'reco-synthetic',
  factors: FACTORS,
  scenarios: SCENARIOS,
  setup,
  check,
  meta,
  extra: async (base, token, _s, redis) =>
    modelRecallLines(redis.url, (await ok(base, token, 'GET', '/v1/databases/current/')).id as string, 200),
});
