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
import os from 'node:os';
import { freePort } from '../../src/store/redis-server.js';
import { DATASETS } from '../quality/data.js';
import {
  assertAlive,
  backendToken,
  call,
  CLI,
  cpuSeconds,
  DISTURBED_PCT,
  fmt,
  fmtInt,
  gitState,
  HELLO,
  HOST,
  launch,
  loadAvg,
  machineBusySeconds,
  median,
  ownSeconds,
  ROOT_EMAIL,
  ROOT_PASSWORD,
  runAutocannon,
  runWrk,
  settings,
  sleep,
  versionOf,
  waitForHttp,
  waitForLine,
  waitForQuiet,
  wrkAvailable,
  type Managed,
  type Measured,
  type Target,
  type Tool,
  benchProgram,
} from './run.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '64';
const BATCH = 16_384;
const ITEM_BATCH = 5_000;
const ML = `${DATASETS}/ml-latest-small`;

// ---------------------------------------------------------------------------------------------------
// Scenarios

type RecoId = 'h' | 'i' | 'u' | 's' | 'f';

interface Scenario {
  id: RecoId;
  label: string;
  target: 'hello' | 'recd';
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  goal?: { ratio: number; p99ms?: number };
}

const ITEM = 356; // Forrest Gump: the most rated movie
const USER = 414; // the user with the most ratings (2,698)
const SESSION = '{"ratings":[{"item_id":356,"rating":9},{"item_id":318,"rating":8},{"item_id":593,"rating":10}]}';

const ALL: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/' },
  { id: 'i', label: `item-to-items \`GET /v1/recommendation/items/${ITEM}/items/\``, target: 'recd', method: 'GET', path: `/v1/recommendation/items/${ITEM}/items/`, goal: { ratio: 0.5, p99ms: 10 } },
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

interface Run {
  scenario: Scenario;
  tool: Tool;
  pipelining: number;
}

interface Sample extends Measured {
  run: Run;
  round: number;
  drainSeconds: number; // how long recd took to finish what the previous run left in flight
  serverCpuPct: number | undefined;
  otherCpuPct: number | undefined;
}

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

async function ok(base: string, token: string, method: string, path: string, body?: unknown, expect = [200]): Promise<any> {
  const r = await call(base, method, path, body, token);
  if (!expect.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
  return r.json;
}

interface TaskRecord {
  task_id: string;
  status: string;
  progress: string;
  error: string | null;
  start_time: number;
  end_time: number | null;
}

const recents = async (base: string, token: string, name: string): Promise<TaskRecord[]> => (await ok(base, token, 'GET', `/v1/tasks/${name}/recents/?amt=50`)).tasks;

// Until no run of the task is queued or running.
async function settle(base: string, token: string, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = (await recents(base, token, name)).filter((t) => t.status === 'QUEUED' || t.status === 'RUNNING');
    if (busy.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${name} still busy after ${timeoutMs / 1000} s: ${JSON.stringify(busy)}`);
    await sleep(500);
  }
}

interface Setup {
  itemsSeconds: number;
  ratingsSeconds: number;
  retrainSeconds: number; // from the explicit POST to the end of any ml_new_items after it
  model: Record<string, unknown>;
  tasks: string;
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

  // The thresholds' trainings saw part of the upload at most: one more, requested now, sees it all.
  t0 = performance.now();
  let taskId: string | undefined;
  while (taskId === undefined) {
    const r = await call(base, 'POST', '/v1/tasks/ml_model_retrain/', undefined, token);
    if (r.status === 200) taskId = r.json.task_id as string;
    else if (r.text.includes('TASK_ALREADY_RUNNING')) await settle(base, token, 'ml_model_retrain', 600_000);
    else throw new Error(`POST tasks/ml_model_retrain/: ${r.status} ${r.text}`);
  }
  process.stderr.write(`retrain requested: task ${taskId}\n`);
  for (;;) {
    const task = (await recents(base, token, 'ml_model_retrain')).find((t) => t.task_id === taskId);
    if (task?.status === 'COMPLETED') break;
    if (task?.status === 'FAILED') throw new Error(`ml_model_retrain failed: ${task.error}`);
    if (performance.now() - t0 > 600_000) throw new Error(`ml_model_retrain not done after 600 s: ${JSON.stringify(task)}`);
    await sleep(250);
  }
  await sleep(1000);
  await settle(base, token, 'ml_new_items', 600_000);
  await settle(base, token, 'ml_model_retrain', 600_000);
  const retrainSeconds = (performance.now() - t0) / 1000;
  for (let k = 0; ; k++) {
    const s = await ok(base, token, 'GET', '/v1/databases/current/status/');
    if (s.status === 'ready') break;
    if (k > 600) throw new Error(`database status still ${JSON.stringify(s)}`);
    await sleep(100);
  }
  const listed = (await ok(base, token, 'GET', '/v1/pretrained-ml/trained-models/')).models as Record<string, unknown>[];
  const model = listed.find((m) => m.serving === true);
  if (!model) throw new Error(`no serving model: ${JSON.stringify(listed).slice(0, 500)}`);
  if (String(model.factors) !== FACTORS) throw new Error(`serving model has ${model.factors} factors, not ${FACTORS}`);
  if (model.n_ratings !== ratings.length) throw new Error(`serving model covers ${model.n_ratings} ratings of ${ratings.length}`);
  const done = async (name: string) => (await recents(base, token, name)).map((t) => `${t.status} ${(t.end_time ?? 0) - t.start_time > 0 ? `${((t.end_time ?? 0) - t.start_time).toFixed(1)} s` : ''}`.trim());
  const tasks = `ml_model_retrain: ${(await done('ml_model_retrain')).reverse().join(', ')}; ml_new_items: ${(await done('ml_new_items')).reverse().join(', ') || 'none'}`;
  process.stderr.write(`model ready after ${retrainSeconds.toFixed(1)} s: ${JSON.stringify(model)}\n${tasks}\n`);
  return {
    itemsSeconds,
    ratingsSeconds,
    retrainSeconds,
    model,
    tasks,
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

// ---------------------------------------------------------------------------------------------------
// Report

function report(samples: Sample[], runs: Run[], meta: Record<string, string>, checks: string[], incomplete?: string): string {
  const out: string[] = [];
  if (incomplete) out.push(`**INCOMPLETE RUN: ${incomplete}**`, '');
  out.push('### Machine and settings', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push('', '### Answers before any load', '', ...checks.map((c) => `- ${c}`), '');
  out.push(
    '| Scenario | Tool | Pipelining | Median req/s | × hello-world (same run) | Target | p99 ms (median) | CPU % server / load gen / other (median) | Rounds req/s | non-2xx / errors / unanswered |',
    '|---|---|---:|---:|---:|---|---:|---|---|---|',
  );
  const flagged: string[] = [];
  const of = (r: Run) => samples.filter((s) => s.run.scenario.id === r.scenario.id && s.run.tool === r.tool && s.run.pipelining === r.pipelining).sort((x, y) => x.round - y.round);
  for (const r of runs) {
    const ss = of(r);
    if (ss.length === 0) continue;
    const base = median(samples.filter((s) => s.run.scenario.id === 'h' && s.run.tool === r.tool && s.run.pipelining === r.pipelining).map((s) => s.rps));
    const rps = median(ss.map((s) => s.rps));
    const ratio = rps / base;
    const p99 = median(ss.map((s) => s.p99ms));
    const non2xx = ss.reduce((n, s) => n + s.non2xx, 0);
    const errors = ss.reduce((n, s) => n + s.errors, 0);
    const unanswered = ss.reduce((n, s) => n + s.unanswered, 0);
    const bad = non2xx > 0 || errors > 0 || unanswered > 0;
    if (bad) {
      flagged.push(
        `- **${r.scenario.id}** ${r.tool}, pipelining ${r.pipelining}: ${ss
          .map((s) => `round ${s.round}: ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered${s.statusCodes ? ` (status ${s.statusCodes})` : ''}`)
          .join('; ')}`,
      );
    }
    const g = r.scenario.goal;
    const goal = !g
      ? ''
      : `≥ ${g.ratio}×${g.p99ms !== undefined ? `, p99 ≤ ${g.p99ms} ms` : ''}: ${
          !bad && ratio >= g.ratio && (g.p99ms === undefined || (Number.isFinite(p99) && p99 <= g.p99ms)) ? 'met' : '**missed**'
        }`;
    out.push(
      `| ${r.scenario.id}. ${r.scenario.label} | ${r.tool} | ${r.pipelining} | ${fmtInt(rps)} | ${r.scenario.id === 'h' ? '1.00' : fmt(ratio, 2)} | ${goal} | ${fmt(p99, 2)} | ${fmt(median(ss.map((s) => s.serverCpuPct ?? NaN)), 0)} / ${fmt(
        median(ss.map((s) => s.generatorCpuPct ?? NaN)),
        0,
      )} / ${fmt(median(ss.map((s) => s.otherCpuPct ?? NaN)), 0)} | ${ss.map((s) => fmtInt(s.rps)).join(', ')} | ${bad ? `⚠ ${non2xx} / ${errors} / ${unanswered}` : '0 / 0 / 0'} |`,
    );
  }
  out.push('');
  const disturbed = samples.filter((s) => (s.otherCpuPct ?? 0) > DISTURBED_PCT);
  out.push(
    disturbed.length === 0
      ? `No run was disturbed: other processes used at most ${DISTURBED_PCT} % of one core during every run.`
      : `**${disturbed.length} of ${samples.length} runs were disturbed** (other processes above ${DISTURBED_PCT} % of one core): ${disturbed
          .map((s) => `${s.run.scenario.id}/${s.run.tool}/p${s.run.pipelining}/round ${s.round} (${fmt(s.otherCpuPct, 0)} %)`)
          .join(', ')}.`,
    '',
  );
  const drained = runs
    .map((r) => ({ r, ss: of(r).filter((s) => s.drainSeconds >= 1 || s.drainSeconds < 0) }))
    .filter(({ ss }) => ss.length > 0)
    .map(({ r, ss }) => `${r.scenario.id}/${r.tool}/p${r.pipelining} (${ss.map((s) => (s.drainSeconds < 0 ? 'gave up' : `${s.drainSeconds.toFixed(1)} s`)).join(', ')})`);
  out.push(
    drained.length === 0
      ? 'recd was idle within a second before every run.'
      : `Before these runs recd was still answering the previous run's requests (left in flight when its load stopped) and was waited for: ${drained.join(', ')}.`,
    '',
  );
  if (flagged.length > 0) out.push('**Flagged: runs with non-2xx responses, errors or unanswered requests** (their req/s is not a valid measurement)', '', ...flagged, '');
  else out.push('No run had non-2xx responses, errors or unanswered requests.', '');
  out.push(
    '_errors_, _unanswered_, _CPU %_ and _p99_ as in the platform table above (bench/http/run.ts): CPU 100 % = one core; _other_ = every process but the runner, wrk, both servers and redis-server. A target counts as met only with no non-2xx, errors or unanswered requests.',
    '',
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Main

// A slow scenario leaves up to `connections` requests in flight when its load stops, and recd works on
// them after the load generator has gone: wait until recd is idle (under 10 % of a core for 250 ms) so
// that backlog is not measured as part of the next run. Returns the seconds waited, -1 on giving up.
async function drain(recd: Managed, maxMs = 120_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const c0 = cpuSeconds(recd.child.pid);
    await sleep(250);
    const c1 = cpuSeconds(recd.child.pid);
    if (c0 === undefined || c1 === undefined) return 0;
    if (((c1 - c0) / 0.25) * 100 < 10) return Math.max(0, (Date.now() - t0) / 1000 - 0.25);
    if (Date.now() - t0 > maxMs) return -1;
  }
}

async function measure(dir: string, run: Run, round: number, t: Target, server: Managed, recd: Managed, ownPids: (number | undefined)[]): Promise<Sample> {
  const drainSeconds = await drain(recd);
  if (drainSeconds < 0 || drainSeconds >= 1) process.stderr.write(drainSeconds < 0 ? '  (recd still busy after 120 s: measuring anyway)\n' : `  (waited ${drainSeconds.toFixed(1)} s for recd to finish the previous run's requests)\n`);
  const quiet = await waitForQuiet(ownPids);
  if (quiet < 0 || quiet >= 1) process.stderr.write(quiet < 0 ? `  (machine still busy after ${settings.quietWaitSeconds} s: measuring anyway)\n` : `  (waited ${quiet.toFixed(0)} s for the machine to be quiet)\n`);
  const cpu0 = cpuSeconds(server.child.pid);
  const busy0 = machineBusySeconds();
  const own0 = ownSeconds(ownPids);
  const wall0 = process.hrtime.bigint();
  const m = run.tool === 'autocannon' ? await runAutocannon(t, run.pipelining, settings.seconds) : await runWrk(dir, t, run.pipelining, settings.seconds);
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const cpu1 = cpuSeconds(server.child.pid);
  const busy1 = machineBusySeconds();
  const own1 = ownSeconds(ownPids);
  const wrkSeconds = run.tool === 'wrk' && m.generatorCpuPct !== undefined ? (m.generatorCpuPct / 100) * wall : 0;
  return {
    ...m,
    run,
    round,
    drainSeconds,
    serverCpuPct: cpu0 !== undefined && cpu1 !== undefined ? ((cpu1 - cpu0) / wall) * 100 : undefined,
    otherCpuPct: busy0 !== undefined && busy1 !== undefined && own0 !== undefined && own1 !== undefined ? Math.max(0, ((busy1 - busy0 - (own1 - own0) - wrkSeconds) / wall) * 100) : undefined,
  };
}

async function main(): Promise<void> {
  await benchProgram('reco', async (redis, dir) => {
    let failed = false;
    const treeAtStart = gitState();
    const wrkVersion = settings.wrk ? wrkAvailable() : undefined;
    const tools: Tool[] = wrkVersion ? ['autocannon', 'wrk'] : ['autocannon'];
    const runs: Run[] = [];
    for (const tool of tools) for (const scenario of SCENARIOS) runs.push({ scenario, tool, pipelining: 1 });
    if (process.env.BENCH_RECO_PIPELINED !== '0') for (const scenario of SCENARIOS.filter((sc) => sc.id === 'h' || sc.id === 'i')) runs.push({ scenario, tool: 'autocannon', pipelining: 10 });

    const recdPort = await freePort();
    const logLevel = process.env.BENCH_RECD_LOG_LEVEL || 'warn';
    const recd = launch('recd', [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), CLI, 'serve'], {
      ...process.env,
      PORT: String(recdPort),
      HOST,
      REDIS_URL: redis.url,
      RECD_ROOT_EMAIL: ROOT_EMAIL,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
      RECD_ALS_FACTORS: FACTORS,
      LOG_LEVEL: logLevel,
    });
    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const recdBase = `http://${HOST}:${recdPort}`;
    await waitForHttp(recd, `${recdBase}/v1/`, 20_000);
    process.stderr.write(`recd on ${recdBase} (pid ${recd.child.pid}), hello-world on http://${HOST}:${helloPort} (pid ${hello.child.pid})\n`);

    const { token, dbId } = await backendToken(recdBase, { item_id_type: 'uint32', user_id_type: 'uint32' });
    process.stderr.write(`backend token obtained for database ${dbId}\n`);
    const setup = await upload(recdBase, token);

    const targets = new Map<RecoId, Target>();
    for (const sc of SCENARIOS) {
      const headers: Record<string, string> = {};
      if (sc.target === 'recd') headers.authorization = `Bearer ${token}`;
      if (sc.body !== undefined) headers['content-type'] = 'application/json';
      targets.set(sc.id, { url: (sc.target === 'hello' ? `http://${HOST}:${helloPort}` : recdBase) + sc.path, method: sc.method, headers, ...(sc.body !== undefined ? { body: sc.body } : {}) });
    }
    const serverOf = (sc: Scenario) => (sc.target === 'hello' ? hello : recd);
    const ownPids = [recd.child.pid, hello.child.pid, redis.pid];

    // Each scenario answers 200 once before any load, with answers that make sense.
    const checks: string[] = [];
    for (const sc of SCENARIOS) {
      const t = targets.get(sc.id)!;
      const t0 = performance.now();
      const r = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body });
      const text = await r.text();
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`scenario ${sc.id} (${t.method} ${t.url}) answers ${r.status} before any load: ${text}`);
      process.stderr.write(`  ${sc.id}: ${t.method} ${t.url} -> ${r.status} in ${ms.toFixed(1)} ms ${text.slice(0, 200)}\n`);
      if (sc.target !== 'recd') continue;
      const again: number[] = [];
      for (let k = 0; k < 5; k++) {
        const a0 = performance.now();
        await (await fetch(t.url, { method: t.method, headers: t.headers, body: t.body })).arrayBuffer();
        again.push(performance.now() - a0);
      }
      checks.push(`${sc.id}: first answer in ${ms.toFixed(1)} ms, then ${fmt(median(again), 1)} ms (median of 5, one at a time): ${sanity(sc, JSON.parse(text), setup)}`);
    }

    if (settings.warmupSeconds > 0) {
      process.stderr.write(`warm-up: ${settings.warmupSeconds} s per scenario (autocannon, pipelining 1, not recorded)\n`);
      for (const sc of SCENARIOS) {
        await drain(recd);
        const w = await runAutocannon(targets.get(sc.id)!, 1, settings.warmupSeconds);
        process.stderr.write(`  warm-up ${sc.id}: ${fmtInt(w.rps)} req/s${w.non2xx > 0 || w.errors > 0 || w.unanswered > 0 ? `, ${w.non2xx} non-2xx, ${w.errors} errors, ${w.unanswered} unanswered (${w.statusCodes})` : ''}\n`);
      }
    }

    const samples: Sample[] = [];
    const startedAt = new Date();
    const loadAtStart = loadAvg();
    let incomplete: string | undefined;
    let current = '';
    try {
      for (let round = 1; round <= settings.rounds; round++) {
        for (const run of runs) {
          const sc = run.scenario;
          current = `round ${round}, ${run.tool}, pipelining ${run.pipelining}, scenario ${sc.id} (${sc.method} ${sc.path})`;
          assertAlive(recd);
          assertAlive(hello);
          const s = await measure(dir, run, round, targets.get(sc.id)!, serverOf(sc), recd, ownPids);
          samples.push(s);
          const warn = s.non2xx > 0 || s.errors > 0 || s.unanswered > 0 ? `  ⚠ ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered ${s.statusCodes}` : '';
          process.stderr.write(
            `round ${round}/${settings.rounds} p=${run.pipelining} ${run.tool.padEnd(10)} ${sc.id}: ${fmtInt(s.rps).padStart(8)} req/s  p99 ${fmt(s.p99ms, 2)} ms  CPU server ${fmt(s.serverCpuPct, 0)} % gen ${fmt(s.generatorCpuPct, 0)} % other ${fmt(s.otherCpuPct, 0)} %${warn}\n`,
          );
          assertAlive(serverOf(sc));
        }
      }
    } catch (err) {
      failed = true;
      const msg = (err as Error).message;
      incomplete = `stopped during ${current}: ${msg.split('\n')[0]}`;
      process.stderr.write(`bench reco: stopped during ${current}: ${msg}\n`);
    }

    const cpus = os.cpus();
    const m = setup.model;
    const meta: Record<string, string> = {
      Machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
      Node: process.version,
      'recd under test': treeAtStart,
      Date: startedAt.toISOString(),
      'Load average (1/5/15 min) at start / end of measuring': `${loadAtStart} / ${loadAvg()}`,
      Data: `ml-latest-small read in place: ${setup.ratings.toLocaleString('en-US')} ratings (× 2, so 1–10) of ${setup.users} users, ${setup.movies.size.toLocaleString('en-US')} items with \`genre\` (unicode32) and \`year\` (int16); items uploaded in ${setup.itemsSeconds.toFixed(2)} s (PUT items-bulk/properties/, ${ITEM_BATCH} a request), ratings in ${setup.ratingsSeconds.toFixed(2)} s (PUT ratings-bulk/, ${BATCH.toLocaleString('en-US')} a request, one client)`,
      Model: `RECD_ALS_FACTORS=${FACTORS}; serving ${m.algorithm} model: ${m.factors} factors, ${m.n_users} users, ${m.n_items} items, ${m.n_ratings} ratings, ${m.neighbours} neighbours, ${fmtInt(Number(m.bytes))} bytes, params ${JSON.stringify(m.params)}, metrics ${JSON.stringify(m.metrics)}; the explicit retrain (and what followed it) took ${setup.retrainSeconds.toFixed(1)} s after the upload; tasks (oldest first): ${setup.tasks}`,
      Settings: `${settings.connections} connections, ${settings.seconds} s per run, ${settings.rounds} interleaved rounds (median reported), ${settings.warmupSeconds} s warm-up per scenario; before each run, wait up to ${settings.quietWaitSeconds} s for other processes to use < ${settings.quietMaxPct} % of one core`,
      'Load generators': `${versionOf('autocannon')} (in the runner process)${wrkVersion ? `; ${wrkVersion} (-t1 -c${settings.connections})` : settings.wrk ? '; wrk not found on PATH: skipped' : '; wrk skipped (BENCH_WRK=0)'}`,
      Servers: `recd (\`node dist/src/cli.js serve\`, LOG_LEVEL=${logLevel}) and the hello-world (\`node dist/bench/http/hello-uws.js\`, ${versionOf('uWebSockets.js')}) as separate processes; private redis-server on port ${redis.port}`,
    };
    process.stdout.write(report(samples, runs, meta, checks, incomplete) + '\n');
    return failed ? 1 : 0;
  });
}

await main();
