// Recommendations over HTTP (issue 6): recd serving a 64-factor ALS model of ml-latest-small against a
// bare uWebSockets.js hello-world measured in the same run.
//
//   npx tsc -p . && node dist/bench/http/reco.js        (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// The machinery is bench/lib's (reco-bench.ts: child processes, autocannon and wrk, CPU and disturbance checks,
// waiting for a quiet machine before each run); only the set-up and the scenarios differ. Set-up over
// HTTP, as a client would (bench/lib/ml-small.ts). Training starts by itself on the way (the 500 · 2^k
// thresholds) and may cover only part of the upload, so once it is done an explicit
// POST tasks/ml_model_retrain/ is waited for (and any ml_new_items after it), then the database's status.
//
// Scenarios, interleaved h,i,u,I,U,s,f (autocannon), the same (wrk), h,i (autocannon, pipelining 10) per
// round, median req/s, p50 and p99 over the rounds; ratios against h of the same run, same tool, same
// pipelining. Requests look like traffic: I and U ask for a random item or user of all per request,
// s posts a random session per request (5 ratings of random movies of all, drawn from 2,000 seeded
// bodies), f a random item per request with two filters; the hot-id i and u beside them measure the
// cached path. The issue's targets are on the random scenarios.
// Also: BENCH_FRESH_PROCESSES=1 (a new recd process per build each round: bench/lib/settings.ts),
// BENCH_RECO_SCENARIOS=h,i (a subset; h is always run), BENCH_RECO_PIPELINED=0 (no pipelining-10
// runs), RECD_ALS_FACTORS (default 64 here), and bench/lib/settings.ts's BENCH_SECONDS, BENCH_ROUNDS,
// BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS, BENCH_WRK, BENCH_QUIET_*, BENCH_RECD_LOG_LEVEL, BENCH_NODE_ARGS, BENCH_OUTPUT_DIR,
// BENCH_RECD_WORKERS (recd's serving processes, 1 by default; 0: one per core, as `npm start` runs it;
// the event-loop delay is then the worst worker's, the collections summed over the workers).
//
// Before and after in the same run: BENCH_RECD_CLI_B=/path/to/other/checkout/dist/src/cli.js (built
// there with `npm run build`) measures that build (B) beside this checkout's (A) on identical data:
// each on its own private redis-server, both given the same upload and retrain, and in every round each
// recd scenario runs on both back to back, A first in odd rounds and B first in even ones. The report
// adds B's rows, tagged (B), and a table of A against B (median req/s, p50 and p99 of each, each ×
// hello-world, B ÷ A). For item-to-items and user-to-items only: BENCH_RECO_SCENARIOS=i,u,I,U.
// Progress goes to stderr, the markdown report to stdout.
import { dataLine, loadMovies, ML_SMALL_FILTERS, upload, type Setup } from '../lib/ml-small.js';
import { sessionBodies } from '../../test/harness/random-sessions.js';
import { runRecoBench, type Scenario } from '../lib/reco-bench.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '64';

// ---------------------------------------------------------------------------------------------------
// Scenarios

const ITEM = 356; // Forrest Gump: the most rated movie
const USER = 414; // the user with the most ratings (2,698)
// Random-id runs draw every request's item from all movies and its user from all 610 users (ids 1..610),
// as real traffic does; the hot-id runs beside them measure the cached path.
const MOVIE_IDS = loadMovies().map((m) => m.id);
const USERS = 610;
// The session of the check before any load; under load every request sends a new one (load.ts).
const SESSION_CHECK = sessionBodies({ count: 1, ratings: 5, items: MOVIE_IDS, seed: 6 })[0]!;
const FILTERS = `?${ML_SMALL_FILTERS}`;

const ALL: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/', pipelined: true },
  {
    id: 'i',
    label: `item-to-items, one hot item \`GET /v1/recommendation/items/${ITEM}/items/\``,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/items/${ITEM}/items/`,
    pipelined: true,
  },
  {
    id: 'u',
    label: `user-to-items, one hot user \`GET /v1/recommendation/users/${USER}/items/?exclude_rated_items=true\` (${USER}: 2,698 ratings)`,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/users/${USER}/items/?exclude_rated_items=true`,
  },
  {
    id: 'I',
    label: `item-to-items, a random item of all ${MOVIE_IDS.length.toLocaleString('en-US')} per request \`GET /v1/recommendation/items/<random>/items/\``,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/items/${ITEM}/items/`,
    randomPath: { prefix: '/v1/recommendation/items/', max: MOVIE_IDS.length, suffix: '/items/', ids: MOVIE_IDS },
    goal: { ratio: 0.5, p99ms: 5 },
  },
  {
    id: 'U',
    label: `user-to-items, a random user of all ${USERS} per request \`GET /v1/recommendation/users/<random>/items/?exclude_rated_items=true\``,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/users/${USER}/items/?exclude_rated_items=true`,
    randomPath: { prefix: '/v1/recommendation/users/', max: USERS, suffix: '/items/?exclude_rated_items=true' },
    goal: { ratio: 0.4, p99ms: 10 },
  },
  {
    id: 's',
    label: `session-to-items, a random session of 5 ratings of random movies per request (a new session every request) \`POST /v1/recommendation/sessions/items/\``,
    target: 'recd',
    method: 'POST',
    path: '/v1/recommendation/sessions/items/',
    body: SESSION_CHECK,
    randomSession: { ids: MOVIE_IDS, ratings: 5 },
    goal: { ratio: 0.3, p99ms: 15 },
  },
  {
    id: 'f',
    label: `item-to-items with two filters, a random item of all per request \`GET /v1/recommendation/items/<random>/items/${FILTERS}\``,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/items/${ITEM}/items/${FILTERS}`,
    randomPath: { prefix: '/v1/recommendation/items/', max: MOVIE_IDS.length, suffix: `/items/${FILTERS}`, ids: MOVIE_IDS },
    goal: { ratio: 0.35 },
  },
];

const SCENARIOS = (() => {
  const raw = process.env.BENCH_RECO_SCENARIOS;
  if (raw === undefined || raw.trim() === '') return ALL;
  const ids = raw.split(',').map((s) => s.trim());
  const bad = ids.filter((id) => !ALL.some((sc) => sc.id === id));
  if (bad.length > 0) throw new Error(`BENCH_RECO_SCENARIOS: unknown scenario ${bad.join(', ')} (use h, i, u, I, U, s, f)`);
  return ALL.filter((sc) => sc.id === 'h' || ids.includes(sc.id));
})();

// What each scenario answers once, before any load, checked against the dataset.
function sanity(sc: Scenario, json: any, setup: Setup): string {
  const ids = (json?.items_id ?? []) as number[];
  const problems: string[] = [];
  if (ids.length === 0) problems.push('no items');
  if (sc.id === 'i' || sc.id === 'f') if (ids.includes(ITEM)) problems.push('the item itself');
  if (sc.id === 'u') {
    const rated = ids.filter((id) => setup.rated.has(id));
    if (rated.length > 0) problems.push(`${rated.length} rated item(s) despite exclude_rated_items`);
  }
  if (sc.id === 'f') {
    const bad = ids.filter((id) => {
      const m = setup.movies.get(id);
      return m?.genre !== 'Drama' || m.year === undefined || m.year < 1990;
    });
    if (bad.length > 0) problems.push(`${bad.length} item(s) failing the filters: ${bad.join(', ')}`);
  }
  const warnings = (json?.warnings ?? []) as string[];
  const named = ids
    .slice(0, 5)
    .map((id) => `${id}${setup.movies.get(id) ? ` (${setup.movies.get(id)!.genre}, ${setup.movies.get(id)!.year ?? '?'})` : ''}`);
  return `${ids.length} items${ids.length > 0 ? `, first ${named.join(', ')}` : ''}${warnings.length > 0 ? `; warnings ${JSON.stringify(warnings)}` : ''}${problems.length > 0 ? `; **PROBLEM: ${problems.join('; ')}**` : '; checks passed'}`;
}

await runRecoBench<Setup>({
  name: 'reco',
  factors: FACTORS,
  scenarios: SCENARIOS,
  setup: (base, token) => upload(base, token, FACTORS, USER),
  check: sanity,
  meta: (setup) => ({
    Data: dataLine(setup),
  }),
});
