// How far one database goes (issue 21, docs/scale.md), on one Redis or on a three-primary Redis Cluster:
// what its ratings cost Redis in memory and CPU, what they cost recd to ingest, train and serve, on the
// power-law synthetic catalogue.
//
//   npm run build && node dist/bench/scale/scale.js                          (one private redis-server)
//   BENCH_SCALE_REDIS=cluster node dist/bench/scale/scale.js                 (a 3-primary cluster)
//
// The frame is bench/lib/reco-bench.ts (as bench/http/reco-synthetic.ts): recd and a bare uWebSockets.js
// hello-world as child processes. Redis: the private redis-server, or with BENCH_SCALE_REDIS=cluster three
// primaries (test/harness/redis-cluster.ts; BENCH_SCALE_REPLICAS replicas each, default 0) with recd on
// REDIS_URL=redis+cluster://…. Every node runs the project's redis.conf (AOF on, no RDB saves).
// The catalogue of bench/lib/synthetic.ts at the BENCH_SYNTH_* sizes (default 100,000 items, 1,000,000
// users, 20,000,000 ratings), uploaded as the Python clients send it (pickle, 65,536 ratings a request, 2
// in flight) with the trainer kept out (RECD_TRAINING_POLL_MS), so the upload is the write path alone. Then:
// - Ingest: ratings a second; Redis's CPU seconds over the upload (INFO cpu, every node added up), per
//   rating; its memory (used_memory of every primary added up), per rating; on a cluster also the primary
//   holding the database (one database = one hash tag = one slot = one primary).
// - The keys of the database's primary by kind (ids replaced by N), counted with SCAN and weighed with
//   MEMORY USAGE (every key of a kind with fewer than 2,000 keys, else every 50th), before and after training.
// - Training: recd restarted with its trainer let in, a retrain (bench/lib/retrain.ts), its seconds, recd's
//   peak RSS (VmHWM) and the model's bytes.
// - Serving, measured against the hello-world in the same run (64 connections, autocannon and wrk,
//   BENCH_SECONDS per run, BENCH_ROUNDS rounds, medians): I item-to-items for a random item of all, U
//   user-to-items for a random user of all (uniform), ?exclude_rated_items=true; req/s, p50, p99, non-2xx.
// BENCH_SCALE_SCENARIOS=h,U (a subset; h always runs); bench/lib/settings.ts's BENCH_* as in reco-synthetic.ts.
// At 20M ratings the training takes many minutes: BENCH_RETRAIN_TIMEOUT_SECONDS=7200.
// Progress on stderr, the markdown report on stdout. A small check run:
//   BENCH_SYNTH_ITEMS=5000 BENCH_SYNTH_USERS=20000 BENCH_SYNTH_RATINGS=300000 BENCH_SECONDS=3 BENCH_ROUNDS=1 node dist/bench/scale/scale.js
import { startRedisCluster } from '../../test/harness/redis-cluster.js';
import { ok } from '../lib/api.js';
import { cpuSeconds } from '../lib/cpu.js';
import { atCleanup } from '../lib/program.js';
import { redisCpuSeconds, redisMemory } from '../lib/private-redis.js';
import { runRecoBench, type Scenario, type SetupContext } from '../lib/reco-bench.js';
import { fmt, fmtInt } from '../lib/report.js';
import { retrain, type Trained } from '../lib/retrain.js';
import { rssOf } from '../lib/rss.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';
import { uploadSynthetic } from '../lib/synthetic-upload.js';
import { keysByKind, kindTable, redisNodes, type Memory } from './redis-nodes.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '32';
const CLUSTER = (() => {
  const mode = process.env.BENCH_SCALE_REDIS?.trim() || 'one';
  if (mode !== 'one' && mode !== 'cluster') throw new Error(`BENCH_SCALE_REDIS must be one or cluster, got ${JSON.stringify(mode)}`);
  return mode === 'cluster';
})();
const PRIMARIES = 3;
const REPLICAS = Number(process.env.BENCH_SCALE_REPLICAS || '0');
if (!Number.isInteger(REPLICAS) || REPLICAS < 0)
  throw new Error(`BENCH_SCALE_REPLICAS must be an integer ≥ 0, got ${JSON.stringify(process.env.BENCH_SCALE_REPLICAS)}`);

const SIZES = synthSizes();
const data = new Synthetic(SIZES);
const USER = data.mostActiveUser;
const mib = (bytes: number) => `${fmtInt(bytes / 1024 ** 2)} MiB`;
const n = (x: number) => x.toLocaleString('en-US');

const item = (id: number | string) => `/v1/recommendation/items/${id}/items/`;
const user = (id: number | string) => `/v1/recommendation/users/${id}/items/?exclude_rated_items=true`;
const ALL: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/' },
  {
    id: 'I',
    label: `item-to-items, a random item of all ${n(SIZES.items)} per request \`GET ${item('<random>')}\``,
    target: 'recd',
    method: 'GET',
    path: item(data.hottestItem),
    randomPath: { prefix: '/v1/recommendation/items/', max: SIZES.items, suffix: '/items/' },
  },
  {
    id: 'U',
    label: `user-to-items, a random user of all ${n(SIZES.users)} per request \`GET ${user('<random>')}\``,
    target: 'recd',
    method: 'GET',
    path: user(USER),
    randomPath: { prefix: '/v1/recommendation/users/', max: SIZES.users, suffix: '/items/?exclude_rated_items=true' },
  },
];
const SCENARIOS = (() => {
  const raw = process.env.BENCH_SCALE_SCENARIOS?.trim();
  if (!raw) return ALL;
  const ids = raw.split(',').map((s) => s.trim());
  const bad = ids.filter((id) => !ALL.some((sc) => sc.id === id));
  if (bad.length > 0)
    throw new Error(`BENCH_SCALE_SCENARIOS: unknown scenario ${bad.join(', ')} (use ${ALL.map((sc) => sc.id).join(', ')})`);
  return ALL.filter((sc) => sc.id === 'h' || ids.includes(sc.id));
})();

interface Setup {
  trained: Trained;
  meta: Record<string, string>;
  tables: string[];
}

const memoryLine = (m: Memory) => `used_memory ${mib(m.used)}, dataset ${mib(m.dataset)}, RSS ${mib(m.rss)}`;

async function setup(base: string, token: string, ctx: SetupContext): Promise<Setup> {
  const redis = await redisNodes(ctx.redisUrl);
  try {
    const dbId = (await ok(base, token, 'GET', '/v1/databases/current/')).id as string;
    const home = await redis.primaryOf(dbId);
    const primaries = redis.nodes.filter((x) => x.primary).length;
    const where = CLUSTER
      ? `${primaries} primaries${REPLICAS > 0 ? ` and ${redis.nodes.length - primaries} replicas` : ''}, the database on the primary at port ${home.port}`
      : 'one redis-server';
    process.stderr.write(
      `synthetic: ${n(SIZES.items)} items, ${n(SIZES.users)} users, ${n(SIZES.ratings)} ratings (seed ${SIZES.seed}); Redis: ${where}\n`,
    );
    const homeMemory = () => redisMemory(home.redis);
    const homeCpu = () => redisCpuSeconds(home.redis);
    const [memory0, home0, cpu0, homeCpu0] = [await redis.memory(), await homeMemory(), await redis.cpuSeconds(), await homeCpu()];
    const recdCpu0 = cpuSeconds(ctx.pid()) ?? NaN;
    const up = await uploadSynthetic(base, token, data, { codec: 'pickle', batch: 65_536, inFlight: 2 });
    const redisSeconds = (await redis.cpuSeconds()) - cpu0;
    const homeSeconds = (await homeCpu()) - homeCpu0;
    const recdSeconds = (cpuSeconds(ctx.pid()) ?? NaN) - recdCpu0;
    const [memory, home1] = [await redis.memory(), await homeMemory()];
    const used = memory.used - memory0.used;
    const homeUsed = home1.used - home0.used;
    process.stderr.write(`upload done: ${n(up.ratings)} ratings in ${up.ratingsSeconds.toFixed(1)} s; Redis +${mib(used)}\n`);
    const kinds = await keysByKind(home.redis);
    const usPerRating = (redisSeconds / up.ratings) * 1e6;

    // The trainer was kept out of the upload: a process whose trainer polls as usual picks the retrain up.
    await ctx.restart({ RECD_TRAINING_POLL_MS: '1000' });
    const before = await rssOf(ctx.pid());
    const trained = await retrain(base, token, FACTORS, up.ratings);
    const after = await rssOf(ctx.pid());
    const memoryTrained = await redis.memory();
    const homeTrained = await homeMemory();
    const kindsTrained = await keysByKind(home.redis);
    const m = trained.model;
    const meta: Record<string, string> = {
      Data: `synthetic (bench/lib/synthetic.ts, seed ${SIZES.seed}): ${n(SIZES.items)} items (two properties), ${n(SIZES.users)} users, ${n(up.ratings)} ratings 1–10, Zipf-like popularity and activity`,
      Redis: CLUSTER
        ? `a Redis Cluster of ${where} (test/harness/redis-cluster.ts, the project's redis.conf with AOF on each node), recd on REDIS_URL=redis+cluster://…; memory added up over the primaries, CPU over every node`
        : `one private redis-server (the project's redis.conf, AOF on)`,
      Ingest: `pickle, 65,536 ratings a request, 2 in flight, trainer kept out: items ${up.itemsSeconds.toFixed(1)} s, ratings ${up.ratingsSeconds.toFixed(1)} s = **${n(Math.round(up.ratings / up.ratingsSeconds))} ratings/s**; recd ${recdSeconds.toFixed(1)} CPU s, Redis ${redisSeconds.toFixed(1)} CPU s${CLUSTER ? ` (the database's primary ${homeSeconds.toFixed(1)})` : ''}`,
      'Redis CPU per rating written': `**${usPerRating.toFixed(2)} µs**${CLUSTER ? ` (the database's primary ${((homeSeconds / up.ratings) * 1e6).toFixed(2)} µs)` : ''}, so one Redis core would take ~${n(Math.round(1e6 / usPerRating))} ratings/s of bulk writes at this cost`,
      'Redis memory for the data set': `used_memory +${mib(used)} (**${(used / up.ratings).toFixed(1)} bytes per rating**), dataset +${mib(memory.dataset - memory0.dataset)}${CLUSTER ? `; the database's primary +${mib(homeUsed)} (${(homeUsed / up.ratings).toFixed(1)} bytes per rating)` : ''}; after the upload ${memoryLine(memory)}`,
      Training: `recd restarted with its trainer let in (${FACTORS} factors, the service's defaults otherwise): the retrain took **${trained.retrainSeconds.toFixed(1)} s** (task ${trained.taskSeconds.toFixed(1)} s, ALS ${fmt(Number(m.metrics?.training_seconds), 1)} s); recd RSS ${before ? mib(before.rssBytes) : '?'} before, **peak ${after ? mib(after.peakBytes) : '?'}**, ${after ? mib(after.rssBytes) : '?'} after; model ${n(Number(m.bytes))} bytes (${mib(Number(m.bytes))}); Redis with the model stored: ${memoryLine(memoryTrained)}${CLUSTER ? `, the database's primary ${memoryLine(homeTrained)}; used_memory by primary: ${await redis.byPrimary()}` : ''}`,
    };
    const tables = [
      `Keys of the database's ${CLUSTER ? `primary (port ${home.port})` : 'Redis'} after the upload, before training (share of the used_memory growth, ${mib(CLUSTER ? homeUsed : used)}):`,
      '',
      ...kindTable(kinds, CLUSTER ? homeUsed : used, up.ratings),
      '',
      `After the training (the log compacted into the snapshot, the model stored; share of used_memory ${mib(homeTrained.used)}):`,
      '',
      ...kindTable(kindsTrained, homeTrained.used, up.ratings),
    ];
    return { trained, meta, tables };
  } finally {
    redis.close();
  }
}

// What a scenario answers once, before any load, checked against the data.
function check(sc: Scenario, json: any): string {
  const ids = (json?.items_id ?? []) as number[];
  const problems: string[] = [];
  if (ids.length === 0) problems.push('no items');
  if (sc.id === 'I' && ids.includes(data.hottestItem)) problems.push('the item itself');
  if (sc.id === 'U') {
    const rated = data.itemsOf(USER);
    const wrong = ids.filter((id) => rated.has(id));
    if (wrong.length > 0) problems.push(`${wrong.length} rated item(s) despite exclude_rated_items`);
  }
  return `${ids.length} items, first ${ids.slice(0, 5).join(', ')}${problems.length > 0 ? `; **PROBLEM: ${problems.join('; ')}**` : '; checks passed'}`;
}

await runRecoBench<Setup>({
  name: 'scale',
  factors: FACTORS,
  env: { RECD_TRAINING_POLL_MS: '3600000' },
  ...(CLUSTER
    ? {
        redis: async () => {
          const cluster = await startRedisCluster(PRIMARIES, REPLICAS);
          atCleanup(() => cluster.stop());
          process.stderr.write(`Redis Cluster: ${cluster.url}\n`);
          return {
            url: cluster.url,
            pids: cluster.nodes.map((x) => x.pid),
            label: `a Redis Cluster of ${PRIMARIES} primaries${REPLICAS > 0 ? `, ${REPLICAS} replica(s) each` : ''} (ports ${cluster.nodes.map((x) => x.port).join(', ')})`,
          };
        },
      }
    : {}),
  scenarios: SCENARIOS,
  setup,
  check,
  meta: (s) => s.meta,
  extra: async (_base, _token, s) => s.tables,
});
