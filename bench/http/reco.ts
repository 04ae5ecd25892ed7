// Recommendations over HTTP (issue 6): recd serving a 64-factor ALS model of ml-latest-small against a
// bare uWebSockets.js hello-world measured in the same run.
//
//   npx tsc -p . && node dist/bench/http/reco.js        (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// The machinery is bench/http/run.ts's (child processes, autocannon and wrk, CPU and disturbance checks,
// waiting for a quiet machine before each run); only the set-up and the scenarios differ. Set-up over
// HTTP, as a client would: a database with uint32 item and user ids, item properties `genre` (unicode32,
// the first genre of movies.csv) and `year` (int16, from the title; left out when the title has none) for
// every movie, then every rating of ratings.csv (movieId, userId, rating × 2 so 0.5–5 becomes 1–10,
// timestamp) with PUT ratings-bulk/ in batches of 16,384. Training starts by itself on the way (the
// 500 · 2^k thresholds) and may cover only part of the upload, so once it is done an explicit
// POST tasks/ml_model_retrain/ is waited for (and any ml_new_items after it), then the database's status.
// The dataset is read in place from $RECD_DATASETS/ml-latest-small (never copied).
//
// Scenarios, interleaved h,i,u,s,f (autocannon), h,i,u,s,f (wrk), h,i (autocannon, pipelining 10) per
// round, median req/s over the rounds; ratios against h of the same run, same tool, same pipelining.
// Also: BENCH_RECO_SCENARIOS=h,i (a subset; h is always run), BENCH_RECO_PIPELINED=0 (no pipelining-10
// runs), RECD_ALS_FACTORS (default 64 here), and run.ts's BENCH_SECONDS, BENCH_ROUNDS,
// BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS, BENCH_WRK, BENCH_QUIET_*, BENCH_RECD_LOG_LEVEL, BENCH_NODE_ARGS.
// Progress goes to stderr, the markdown report to stdout.
import { readFileSync } from 'node:fs';
import { DATASETS } from '../quality/data.js';
import { ok, retrain, runRecoBench, type Scenario, type Trained } from './reco-common.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '64';
const BATCH = 16_384;
const ITEM_BATCH = 5_000;
const ML = `${DATASETS}/ml-latest-small`;

// ---------------------------------------------------------------------------------------------------
// Scenarios


const ITEM = 356; // Forrest Gump: the most rated movie
const USER = 414; // the user with the most ratings (2,698)
const SESSION = '{"ratings":[{"item_id":356,"rating":9},{"item_id":318,"rating":8},{"item_id":593,"rating":10}]}';

const ALL: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/', pipelined: true },
  { id: 'i', label: `item-to-items \`GET /v1/recommendation/items/${ITEM}/items/\``, target: 'recd', method: 'GET', path: `/v1/recommendation/items/${ITEM}/items/`, goal: { ratio: 0.5, p99ms: 10 }, pipelined: true },
  {
    id: 'u',
    label: `user-to-items \`GET /v1/recommendation/users/${USER}/items/?exclude_rated_items=true\` (${USER}: 2,698 ratings)`,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/users/${USER}/items/?exclude_rated_items=true`,
    goal: { ratio: 0.3 },
  },
  { id: 's', label: 'session-to-items `POST /v1/recommendation/sessions/items/` (3 ratings)', target: 'recd', method: 'POST', path: '/v1/recommendation/sessions/items/', body: SESSION, goal: { ratio: 0.3 } },
  {
    id: 'f',
    label: `item-to-items with two filters \`GET /v1/recommendation/items/${ITEM}/items/?filters=genre:eq:Drama&filters=year:gte:1990\``,
    target: 'recd',
    method: 'GET',
    path: `/v1/recommendation/items/${ITEM}/items/?filters=genre:eq:Drama&filters=year:gte:1990`,
    goal: { ratio: 0.3 },
  },
];

const SCENARIOS = (() => {
  const raw = process.env.BENCH_RECO_SCENARIOS;
  if (raw === undefined || raw.trim() === '') return ALL;
  const ids = raw.split(',').map((s) => s.trim());
  const bad = ids.filter((id) => !ALL.some((sc) => sc.id === id));
  if (bad.length > 0) throw new Error(`BENCH_RECO_SCENARIOS: unknown scenario ${bad.join(', ')} (use h, i, u, s, f)`);
  return ALL.filter((sc) => sc.id === 'h' || ids.includes(sc.id));
})();

// ---------------------------------------------------------------------------------------------------
// The dataset

interface Movie {
  id: number;
  genre: string;
  year: number | undefined;
}

function loadMovies(): Movie[] {
  const lines = readFileSync(`${ML}/movies.csv`, 'utf8').split(/\r?\n/);
  const out: Movie[] = [];
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!;
    if (line === '') continue;
    // movieId,title,genres: the title may be quoted and hold commas, genres never do.
    const first = line.indexOf(',');
    const last = line.lastIndexOf(',');
    const title = line.slice(first + 1, last).replace(/^"(.*)"$/, '$1').trim();
    const year = /\((\d{4})(?:[-–]\d{4})?\)$/.exec(title);
    out.push({ id: Number(line.slice(0, first)), genre: line.slice(last + 1).split('|')[0]!, year: year ? Number(year[1]) : undefined });
  }
  return out;
}

interface Rating {
  user_id: number;
  item_id: number;
  rating: number;
  timestamp: number;
}

function loadRatings(): Rating[] {
  const lines = readFileSync(`${ML}/ratings.csv`, 'utf8').split(/\r?\n/);
  const out: Rating[] = [];
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!;
    if (line === '') continue;
    const p = line.split(',');
    out.push({ user_id: Number(p[0]), item_id: Number(p[1]), rating: Number(p[2]) * 2, timestamp: Number(p[3]) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Set-up over HTTP

interface Setup {
  itemsSeconds: number;
  ratingsSeconds: number;
  trained: Trained;
  movies: Map<number, Movie>;
  rated: Set<number>; // items USER rated
  ratings: number;
  users: number;
}

async function upload(base: string, token: string): Promise<Setup> {
  const movies = loadMovies();
  const ratings = loadRatings();
  process.stderr.write(`ml-latest-small: ${movies.length} movies, ${ratings.length} ratings\n`);

  let t0 = performance.now();
  await ok(base, token, 'POST', '/v1/items-properties/', { property_name: 'genre', value_type: 'unicode32', repeated: false }, [200, 204]);
  await ok(base, token, 'POST', '/v1/items-properties/', { property_name: 'year', value_type: 'int16', repeated: false }, [200, 204]);
  for (let k = 0; k < movies.length; k += ITEM_BATCH) {
    const items = movies.slice(k, k + ITEM_BATCH).map((m) => (m.year === undefined ? { item_id: m.id, genre: m.genre } : { item_id: m.id, genre: m.genre, year: m.year }));
    await ok(base, token, 'PUT', '/v1/items-bulk/properties/', { items }, [200, 202]);
  }
  const itemsSeconds = (performance.now() - t0) / 1000;
  process.stderr.write(`items uploaded in ${itemsSeconds.toFixed(2)} s\n`);

  t0 = performance.now();
  for (let k = 0; k < ratings.length; k += BATCH) {
    await ok(base, token, 'PUT', '/v1/ratings-bulk/', { ratings: ratings.slice(k, k + BATCH) });
  }
  const ratingsSeconds = (performance.now() - t0) / 1000;
  process.stderr.write(`ratings uploaded in ${ratingsSeconds.toFixed(2)} s\n`);

  const trained = await retrain(base, token, FACTORS, ratings.length);
  return {
    itemsSeconds,
    ratingsSeconds,
    trained,
    movies: new Map(movies.map((m) => [m.id, m])),
    rated: new Set(ratings.filter((r) => r.user_id === USER).map((r) => r.item_id)),
    ratings: ratings.length,
    users: new Set(ratings.map((r) => r.user_id)).size,
  };
}

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
      return !m || m.genre !== 'Drama' || m.year === undefined || m.year < 1990;
    });
    if (bad.length > 0) problems.push(`${bad.length} item(s) failing the filters: ${bad.join(', ')}`);
  }
  const warnings = (json?.warnings ?? []) as string[];
  const named = ids.slice(0, 5).map((id) => `${id}${setup.movies.get(id) ? ` (${setup.movies.get(id)!.genre}, ${setup.movies.get(id)!.year ?? '?'})` : ''}`);
  return `${ids.length} items${ids.length > 0 ? `, first ${named.join(', ')}` : ''}${warnings.length > 0 ? `; warnings ${JSON.stringify(warnings)}` : ''}${problems.length > 0 ? `; **PROBLEM: ${problems.join('; ')}**` : '; checks passed'}`;
}

await runRecoBench<Setup>({
  name: 'reco',
  factors: FACTORS,
  scenarios: SCENARIOS,
  setup: upload,
  check: sanity,
  meta: (setup) => ({
    Data: `ml-latest-small read in place: ${setup.ratings.toLocaleString('en-US')} ratings (× 2, so 1–10) of ${setup.users} users, ${setup.movies.size.toLocaleString('en-US')} items with \`genre\` (unicode32) and \`year\` (int16); items uploaded in ${setup.itemsSeconds.toFixed(2)} s (PUT items-bulk/properties/, ${ITEM_BATCH} a request), ratings in ${setup.ratingsSeconds.toFixed(2)} s (PUT ratings-bulk/, ${BATCH.toLocaleString('en-US')} a request, one client)`,
  }),
});
