// CPU µs per recommendation request through recd's dispatcher, in-process (no sockets, no load
// generator): what the HTTP benchmarks cannot separate from uWebSockets.js, the kernel and the client.
// One build per process, so that comparing two builds does not let one's JIT state favour the other:
// run this checkout's build and another's alternately and compare the medians.
//
//   node dist/bench/http/reco-dispatch-cost.js                                   (this build)
//   BENCH_RECD_DIST=/path/to/other/checkout/dist node dist/bench/http/reco-dispatch-cost.js
//   RECD_METRICS_PORT=0 node dist/bench/http/reco-dispatch-cost.js                (with metrics on)
//
// Data: a synthetic database (uint32 ids) of 600 users × 80 ratings over 5,000 items, popularity
// skewed towards low ids, trained with 64 factors; then, per case, rounds of 20,000 requests issued
// back to back (those answered in the same tick finish at once, the others are awaited together).
// Cases: item-to-items and user-to-items (exclude_rated_items) for an id drawn at random from every
// rated item or every user, each beside its hot-id form (one id every request), and a session of 5
// random items (posted); with ml-small data, item-to-items for a random item with two filters
// (`genre:eq:Drama`, `year:gte:1990`, as bench/http/reco.ts's f). Also: BENCH_ROUNDS (7); BENCH_DISPATCH_DATA=ml-small (ml-latest-small as
// bench/http/reco.ts uploads it, from RECD_DATASETS, instead of the synthetic database; the random
// ids then drawn from all its movies and 610 users); BENCH_DISPATCH_DATA=synthetic (bench/lib/synthetic.ts's
// power-law catalogue at BENCH_SYNTH_ITEMS, BENCH_SYNTH_USERS, BENCH_SYNTH_RATINGS, uploaded as
// reco-synthetic.ts uploads it, with 32 factors unless RECD_ALS_FACTORS says otherwise, and its filtered
// case `category:eq:category-00`, `year:gte:1990`: e.g. 100,000 items, 100,000 users, 2,000,000 ratings
// to see what a catalogue of 100k items costs a request without training on 20M ratings);
// BENCH_DISPATCH_CASES=session (only the cases whose name starts so); BENCH_DISPATCH_ALLOCATIONS=1 (also,
// before the timed rounds, the bytes a request allocates per allocating function over one round,
// sampled by V8's heap profiler with the objects collections freed counted too: what feeds the
// collector, which a CPU profile shows only as its own time).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { backendToken, call } from '../lib/api.js';
import { loadMovies, ML_SMALL_FILTERS, upload } from '../lib/ml-small.js';
import { Synthetic, SYNTH_FILTERS, synthSizes } from '../lib/synthetic.js';
import { uploadOptions, uploadSynthetic } from '../lib/synthetic-upload.js';
import { retrain } from '../lib/retrain.js';
import { median } from '../lib/report.js';
import { ROOT_EMAIL, ROOT_PASSWORD } from '../lib/servers.js';

const DIST = resolve(process.env.BENCH_RECD_DIST ?? fileURLToPath(new URL('../..', import.meta.url)));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = 20_000;

const { loadConfig } = await import(join(DIST, 'src/config/env.js'));
const { startApp } = await import(join(DIST, 'src/main.js'));
const { startRedisServer } = await import(join(DIST, 'src/store/redis-server.js'));

const dir = mkdtempSync(join(tmpdir(), 'recd-reco-dispatch-'));
const redis = await startRedisServer(join(dir, 'redis'));
// RECD_METRICS_PORT passes through: the same build with metrics on and off measures what counting costs.
// No parameter search: both builds serve the same 64-factor model (a search may pick other factors).
const metricsEnv = process.env.RECD_METRICS_PORT ? { RECD_METRICS_PORT: process.env.RECD_METRICS_PORT } : {};
const DATA = process.env.BENCH_DISPATCH_DATA;
const mlSmall = DATA === 'ml-small',
  synthetic = DATA === 'synthetic';
const factors = synthetic ? (process.env.RECD_ALS_FACTORS ?? '32') : '64';
const env = {
  PORT: '0',
  REDIS_URL: redis.url,
  RECD_ROOT_EMAIL: ROOT_EMAIL,
  RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  LOG_LEVEL: 'silent',
  RECD_ALS_FACTORS: factors,
  RECD_SEARCH_SECONDS: '0',
  ...metricsEnv,
};
const app = await startApp(loadConfig(env), pino({ level: 'silent' }));
const host = `http://127.0.0.1:${app.port}`;
const { token } = await backendToken(host, { item_id_type: 'uint32', user_id_type: 'uint32' });

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const ratings: { user_id: number; item_id: number; rating: number; timestamp: number }[] = [];
const synth = synthetic ? new Synthetic(synthSizes()) : undefined;
if (mlSmall) {
  await upload(host, token, '64', 414);
} else if (synth) {
  await uploadSynthetic(host, token, synth, uploadOptions());
  await retrain(host, token, factors, synth.sizes.ratings);
} else {
  for (let u = 1; u <= 600; u++)
    for (let k = 0; k < 80; k++)
      ratings.push({
        user_id: u,
        item_id: 1 + Math.floor(rand() ** 2 * 5000),
        rating: 1 + Math.floor(rand() * 10),
        timestamp: 1_700_000_000 + k,
      });
  for (let k = 0; k < ratings.length; k += 16_384)
    await call(host, 'PUT', '/v1/ratings-bulk/', { ratings: ratings.slice(k, k + 16_384) }, token);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Measured once the database is ready and every background task it queued is over: process CPU
// counts the training threads too.
const ended = async (name: string) => {
  const tasks = (await call(host, 'GET', `/v1/tasks/${name}/recents/`, undefined, token)).json;
  const list: { status: string }[] = Array.isArray(tasks) ? tasks : (tasks?.tasks ?? []);
  return list.every((x) => x.status === 'COMPLETED' || x.status === 'FAILED');
};
for (let quiet = 0; quiet < 3; ) {
  const status = (await call(host, 'GET', '/v1/databases/current/status/', undefined, token)).json?.status;
  quiet = status === 'ready' && (await ended('ml_model_retrain')) && (await ended('ml_new_items')) ? quiet + 1 : 0;
  await sleep(1000);
}

const plain = (path: string) => {
  const [url, query] = path.split('?') as [string, string | undefined];
  return {
    method: 'GET',
    url: `/v1/${url}`,
    query: query ?? '',
    authorization: `Bearer ${token}`,
    contentType: '',
    contentEncoding: '',
    accept: '',
    acceptEncoding: '',
    remoteAddress: '127.0.0.1',
    idempotencyKey: '',
    body: undefined as Uint8Array | undefined,
  };
};
const ITEMS = mlSmall
  ? loadMovies().map((m) => m.id)
  : synth
    ? Array.from({ length: synth.sizes.items }, (_, k) => k + 1)
    : [...new Set(ratings.map((r) => r.item_id))];
const USERS = mlSmall ? 610 : synth ? synth.sizes.users : 600;
// The filtered case's filters: what bench/http/reco.ts's f and reco-synthetic.ts's F ask.
const FILTERS = mlSmall ? ML_SMALL_FILTERS : synth ? SYNTH_FILTERS : undefined;
const anyOf = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
// A session of 5 distinct random items of all, ratings 1–10 (what bench/http/reco.ts's s posts).
const sessionOf = () => {
  const picked = new Set<number>();
  while (picked.size < 5) picked.add(anyOf(ITEMS));
  const body = JSON.stringify({ ratings: [...picked].map((item_id) => ({ item_id, rating: 1 + Math.floor(Math.random() * 10) })) });
  return {
    ...plain('recommendation/sessions/items/'),
    method: 'POST',
    contentType: 'application/json',
    body: new TextEncoder().encode(body),
  };
};
const ALL_CASES: Record<string, () => string | ReturnType<typeof plain>> = {
  [`item-to-items, a random item of all ${ITEMS.length.toLocaleString('en-US')}`]: () => `recommendation/items/${anyOf(ITEMS)}/items/`,
  'item-to-items, one item': () => 'recommendation/items/17/items/',
  // bench/http/reco.ts's f and reco-synthetic.ts's F: two filters that only those catalogues' properties answer.
  ...(FILTERS
    ? {
        [`item-to-items with two filters, a random item of all ${ITEMS.length.toLocaleString('en-US')}`]: () =>
          `recommendation/items/${anyOf(ITEMS)}/items/?${FILTERS}`,
      }
    : {}),
  [`user-to-items, a random user of all ${USERS}, exclude_rated_items`]: () =>
    `recommendation/users/${1 + Math.floor(Math.random() * USERS)}/items/?exclude_rated_items=true`,
  'user-to-items, one user, exclude_rated_items': () => 'recommendation/users/17/items/?exclude_rated_items=true',
  'session-to-items, 5 random items of all': sessionOf,
};
const only = process.env.BENCH_DISPATCH_CASES;
const CASES = Object.fromEntries(Object.entries(ALL_CASES).filter(([name]) => only === undefined || name.startsWith(only)));

// CPU µs per request over one round, and the share answered after an await.
async function round(make: () => string | ReturnType<typeof plain>): Promise<{ us: number; awaited: number }> {
  const requests = Array.from({ length: PER_ROUND }, () => {
    const r = make();
    return typeof r === 'string' ? plain(r) : r;
  });
  const pending: Promise<unknown>[] = [];
  const cpu0 = process.cpuUsage();
  for (const r of requests) {
    const out = app.dispatcher.dispatch(r);
    if (out instanceof Promise) pending.push(out);
    else if (out.status !== 200) throw new Error(`${r.url}: ${out.status}`);
  }
  await Promise.all(pending);
  const cpu = process.cpuUsage(cpu0);
  return { us: (cpu.user + cpu.system) / PER_ROUND, awaited: pending.length / PER_ROUND };
}

for (const make of Object.values(CASES)) await round(make); // warm-up
const allocated: string[] = [];
if (process.env.BENCH_DISPATCH_ALLOCATIONS === '1') await allocations();
const results = new Map<string, { us: number[]; awaited: number[] }>();
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, make] of Object.entries(CASES)) {
    const m = await round(make);
    const held = results.get(name) ?? { us: [], awaited: [] };
    held.us.push(m.us);
    held.awaited.push(m.awaited);
    results.set(name, held);
  }
}
console.log(`build: ${DIST}`);
if (allocated.length > 0) console.log(allocated.join('\n'));
// The least round is the steadiest figure: a round only ever gains time (a collection, the JIT, a flush).
for (const [name, m] of results)
  console.log(
    `${name}: ${median(m.us).toFixed(2)} µs CPU per request, least ${Math.min(...m.us).toFixed(2)} (rounds ${m.us.map((x) => x.toFixed(1)).join(', ')}), ${(median(m.awaited) * 100).toFixed(0)} % answered after an await`,
  );
await app.close();
await redis.stop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);

// Bytes allocated per request by function, per case (BENCH_DISPATCH_ALLOCATIONS=1).
async function allocations(): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  for (const [name, make] of Object.entries(CASES)) {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await round(make);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const by = new Map<string, number>();
    const walk = (n: typeof profile.head): void => {
      const f = n.callFrame;
      const at = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
      by.set(at, (by.get(at) ?? 0) + n.selfSize);
      for (const c of n.children) walk(c);
    };
    walk(profile.head);
    const total = [...by.values()].reduce((a, b) => a + b, 0);
    allocated.push(
      `${name}: ${(total / PER_ROUND).toFixed(0)} bytes allocated per request (this bench's own requests included), the most by:`,
    );
    for (const [at, bytes] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 12))
      allocated.push(`  ${(bytes / PER_ROUND).toFixed(0).padStart(6)} ${at}`);
  }
  session.disconnect();
}
