// A model of 20M users × 32 factors (issue 21, docs/scale.md): does it load and serve, how long does
// the load take, what memory does it cost, and how fast are users' recommendations from it.
//
//   npm run build && node --expose-gc dist/bench/scale/big-model.js
//
// A fresh recd (one serving process) on a private redis-server (bench/lib/recd-stack.ts), the trainer
// kept out. Items and users go in over HTTP (PUT items-bulk/properties/ and users-bulk/properties/,
// ids 1..N, no values: what makes recd give each its dense index, the model's row). Then a synthetic
// model (random factors, no precomputed lists) is published the way a training publishes one
// (ModelsStore.publish under the trainer lock, the database marked ready), in two steps: first a
// model of the items only, which a request makes recd hold, then the big one, which recd loads on its
// announcement while it keeps serving the first. Measured:
// - the upload of users (users/s) and Redis used_memory after it;
// - the model's bytes and Redis parts, the publish time, and the load time: from the announcement
//   until a user's answer is the big model's top items (polled every LOAD_POLL_MS);
// - recd's RSS before the big model and after it serves (VmRSS, peak VmHWM), Redis used_memory;
// - user-to-items (GET recommendation/users/<id>/items/?amt=10, ids drawn uniformly from 1..N) under
//   autocannon (BENCH_CONNECTIONS, default 64; BENCH_SECONDS, BENCH_ROUNDS) against a bare uWS
//   hello-world in the same rounds: median req/s, p50, p99, and the ratio.
// Answers are checked before any load: CHECK_USERS users' top items are recomputed here from the
// factors and must be what recd answers.
//
// Env knobs: BENCH_BIG_USERS (default 20,000,000), BENCH_BIG_ITEMS (100,000), BENCH_BIG_FACTORS (32),
// BENCH_BIG_USER_BATCH (users a request, default 20,000; recd takes up to 100,000), BENCH_BIG_IN_FLIGHT
// (requests in flight, default 2). Progress on stderr, the markdown report on stdout. A small check run:
//   BENCH_BIG_USERS=200000 BENCH_BIG_ITEMS=5000 BENCH_SECONDS=3 BENCH_ROUNDS=1 node --expose-gc dist/bench/scale/big-model.js
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { allocateModel, modelBytes, type ModelDims, type ModelViews } from '../../src/engine/model/layout.js';
import { partCount } from '../../src/store/blob-parts.js';
import { DatabasesStore } from '../../src/store/databases-store.js';
import { keys } from '../../src/store/keys.js';
import { ModelsStore, type ModelMeta } from '../../src/store/models-store.js';
import { TrainingStore } from '../../src/store/training-store.js';
import { freePort } from '../../src/store/redis-server.js';
import { runAutocannon, type Measured } from '../lib/load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { launch, stop, waitForLine } from '../lib/processes.js';
import { redisMemory } from '../lib/private-redis.js';
import { startBenchStack } from '../lib/recd-stack.js';
import { fmt, fmtInt, gitState, median } from '../lib/report.js';
import { rssOf, type Rss } from '../lib/rss.js';
import { HELLO, HOST } from '../lib/servers.js';
import { settings } from '../lib/settings.js';

function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

const USERS = envInt('BENCH_BIG_USERS', 20_000_000, 1, 0x7fffffff);
const ITEMS = envInt('BENCH_BIG_ITEMS', 100_000, 10, 10_000_000);
const FACTORS = envInt('BENCH_BIG_FACTORS', 32, 1, 1024);
const USER_BATCH = envInt('BENCH_BIG_USER_BATCH', 20_000, 1, 100_000);
const IN_FLIGHT = envInt('BENCH_BIG_IN_FLIGHT', 2, 1, 64);
const ITEM_BATCH = 20_000;
const AMT = 10;
const CHECK_USERS = 5;
const LOAD_POLL_MS = 200;

const mib = (bytes: number) => `${fmtInt(bytes / 1024 ** 2)} MiB`;
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const log = (line: string) => process.stderr.write(`${line}\n`);
const rssText = (r: Rss | undefined) => (r ? `${mib(r.rssBytes)} (peak ${mib(r.peakBytes)})` : 'not readable');

// mulberry32: a repeatable stream of uniform floats in [0, 1), fast enough for billions of draws.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Ids 1..count uploaded `batch` a request with `inFlight` requests at once; the seconds it took and
// the requests retried. A 503 (Redis slower than recd's command timeout: on a shared machine a
// fork for the AOF rewrite or a late fsync stalls it) is retried after a growing pause, as the error
// asks; the write is idempotent (ids only).
let retried = 0;
async function uploadIds(
  call: (m: string, p: string, b: string) => Promise<unknown>,
  path: string,
  plural: string,
  count: number,
  batch: number,
  inFlight: number,
): Promise<number> {
  const t0 = process.hrtime.bigint();
  const put = async (body: string) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call('PUT', path, body);
      } catch (err) {
        if (attempt >= 8 || !/: 503 /.test((err as Error).message)) throw err;
        retried++;
        log(`  (503, retry ${attempt + 1} in ${2 ** attempt} s)`);
        await new Promise((r) => setTimeout(r, 1000 * 2 ** attempt));
      }
    }
  };
  let next = 1;
  let done = 0;
  let shown = 0;
  const worker = async () => {
    while (next <= count) {
      const from = next;
      const to = Math.min(count, from + batch - 1);
      next = to + 1;
      const rows: string[] = [];
      for (let id = from; id <= to; id++) rows.push(`{"${plural === 'users' ? 'user_id' : 'item_id'}":${id}}`);
      await put(`{"${plural}":[${rows.join(',')}]}`);
      done += to - from + 1;
      if (done - shown >= count / 20 || done === count) {
        shown = done;
        const s = seconds(t0);
        log(`  ${plural}: ${fmtInt(done)} / ${fmtInt(count)} in ${s.toFixed(0)} s (${fmtInt(done / s)}/s)`);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return seconds(t0);
}

// A model of `users` users (rows 0 .. users-1) over every item: random factors, no lists, every item trained.
function syntheticModel(users: number, items: number, factors: number, seed: number): { buffer: SharedArrayBuffer; views: ModelViews } {
  const dims: ModelDims = { factors, users, items, itemList: 0, userList: 0, trainedItems: items, lists: 0 };
  const model = allocateModel(dims);
  const v = model.views;
  const next = random(seed);
  // Centred, so users' tastes differ (a shared positive bias would rank the same items first for everyone).
  for (let k = 0; k < v.userFactors.length; k++) v.userFactors[k] = next() - 0.5;
  for (let k = 0; k < v.itemFactors.length; k++) v.itemFactors[k] = next() - 0.5;
  for (let i = 0; i < items; i++) {
    v.popularity[i] = next() * 100;
    v.itemCounts[i] = 1;
    const row = v.itemFactors.subarray(i * factors, (i + 1) * factors);
    for (let a = 0; a < factors; a++)
      for (let b = 0; b < factors; b++) v.gram[a * factors + b] = v.gram[a * factors + b]! + row[a]! * row[b]!;
  }
  return model;
}

// Item rows of the `amt` best scores of one user's factors over every item, best first.
function topRows(userFactors: Float32Array, itemFactors: Float32Array, factors: number, amt: number): number[] {
  const items = itemFactors.length / factors;
  const scored: [number, number][] = [];
  for (let i = 0; i < items; i++) {
    let s = 0;
    for (let a = 0; a < factors; a++) s += Math.fround(userFactors[a]! * itemFactors[i * factors + a]!);
    scored.push([s, i]);
  }
  return scored
    .sort((x, y) => y[0] - x[0])
    .slice(0, amt)
    .map(([, i]) => i);
}

function metaOf(id: string, dims: ModelDims, bytes: number): ModelMeta {
  return {
    model_id: id,
    timestamp: Date.now() / 1000,
    algorithm: 'als',
    n_users: dims.users,
    n_items: dims.items,
    n_ratings: 0,
    factors: dims.factors,
    item_list: 0,
    user_list: 0,
    bytes,
    metrics: { synthetic: 1 },
    params: { factors: dims.factors },
    ratings_log_id: '0-0', // the data end before the (empty) ratings log: every user's factors stand
  };
}

process.env.RECD_TRAINING_POLL_MS = '3600000';
const stack = await startBenchStack();
const redis = new Redis(stack.redisUrl);
const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env });
const out: string[] = [];
try {
  const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
  const call = (m: string, p: string, b: string) => stack.call(m, p, b);
  const db = /^\{db:([^}]+)\}:meta$/.exec((await redis.keys('{db:*}:meta'))[0] ?? '')?.[1];
  if (!db) throw new Error('no database in Redis');
  const memory0 = await redisMemory(redis);

  log(`items: ${fmtInt(ITEMS)}`);
  const itemSeconds = await uploadIds(call, 'items-bulk/properties/', 'items', ITEMS, ITEM_BATCH, 1);
  log(`users: ${fmtInt(USERS)}, ${fmtInt(USER_BATCH)} a request, ${IN_FLIGHT} in flight`);
  const userSeconds = await uploadIds(call, 'users-bulk/properties/', 'users', USERS, USER_BATCH, IN_FLIGHT);
  const memoryUsers = await redisMemory(redis);
  log(`Redis used_memory ${mib(memoryUsers.used)} after the users`);

  // Published as a training publishes: under the trainer lock, then the database marked ready.
  const models = new ModelsStore(redis);
  const training = new TrainingStore(redis);
  const databases = new DatabasesStore(redis);
  const owner = `big-model-bench ${randomUUID()}`;
  const publish = async (model: { buffer: SharedArrayBuffer; views: ModelViews }, id: string): Promise<number> => {
    if (!(await training.lock(db, owner, 3_600_000))) throw new Error('the trainer lock is held by someone else');
    const t0 = process.hrtime.bigint();
    try {
      if (!(await models.publish(db, owner, metaOf(id, model.views.dims, model.buffer.byteLength), model.buffer)))
        throw new Error('publish refused');
    } finally {
      await training.unlock(db, owner);
    }
    const record = await databases.get(db);
    if (record && record.status !== 'ready') await databases.update({ ...record, status: 'ready' });
    return seconds(t0);
  };

  // The first model (items only) makes recd hold the database, so the big one loads on its announcement.
  await publish(syntheticModel(0, ITEMS, FACTORS, 1), `items-only-${randomUUID()}`);
  await stack.call('GET', 'recommendation/users/1/items/?amt=1');

  const dims: ModelDims = { factors: FACTORS, users: USERS, items: ITEMS, itemList: 0, userList: 0, trainedItems: ITEMS, lists: 0 };
  log(`model: ${fmtInt(USERS)} users × ${fmtInt(ITEMS)} items × ${FACTORS} factors = ${mib(modelBytes(dims))}`);
  const tBuild = process.hrtime.bigint();
  let big: { buffer: SharedArrayBuffer; views: ModelViews } | undefined = syntheticModel(USERS, ITEMS, FACTORS, 2);
  const buildSeconds = seconds(tBuild);
  const bytes = big.buffer.byteLength;
  // What the checks need, copied: the big buffer is let go once published (this process would
  // otherwise hold a third copy beside Redis's and recd's).
  const itemFactors = big.views.itemFactors.slice();
  const itemIds = (await redis.hmget(keys.entityIds(db, 'item'), ...Array.from({ length: ITEMS }, (_, i) => String(i)))).map(Number);
  const checkIds = [1, USERS, ...Array.from({ length: CHECK_USERS - 2 }, (_, k) => 1 + Math.floor(((k + 1) * USERS) / CHECK_USERS))];
  const checks: { id: number; row: number; expected: number[] }[] = [];
  for (const id of checkIds) {
    const row = Number(await redis.hget(keys.entityIndex(db, 'user'), String(id)));
    const factors = big.views.userFactors.subarray(row * FACTORS, (row + 1) * FACTORS);
    checks.push({ id, row, expected: topRows(factors, itemFactors, FACTORS, AMT).map((r) => itemIds[r]!) });
  }
  const before = await rssOf(stack.pid);
  const tPublish = process.hrtime.bigint();
  const modelId = `big-${randomUUID()}`;
  const publishSeconds = await publish(big, modelId);
  const tAnnounced = process.hrtime.bigint();
  big = undefined;
  (globalThis as { gc?: () => void }).gc?.();
  log(`published ${mib(bytes)} in ${publishSeconds.toFixed(1)} s (built in ${buildSeconds.toFixed(1)} s); waiting for recd to serve it`);

  // Loaded once the last check user (the last row) gets the big model's answer.
  const answer = async (id: number) =>
    ((await stack.call('GET', `recommendation/users/${id}/items/?amt=${AMT}`)) as { items_id: number[] }).items_id;
  const last = checks[1]!;
  let peakDuringLoad = 0;
  for (;;) {
    const got = await answer(last.id);
    peakDuringLoad = Math.max(peakDuringLoad, (await rssOf(stack.pid))?.rssBytes ?? 0);
    if (JSON.stringify(got) === JSON.stringify(last.expected)) break;
    if (seconds(tAnnounced) > 1800)
      throw new Error(`recd did not serve the big model within 30 min: user ${last.id} gets ${JSON.stringify(got)}`);
    await new Promise((r) => setTimeout(r, LOAD_POLL_MS));
  }
  const loadSeconds = seconds(tAnnounced);
  log(
    `recd serves the big model ${loadSeconds.toFixed(1)} s after its announcement (${seconds(tPublish).toFixed(1)} s after the publish began)`,
  );
  const after = await rssOf(stack.pid);
  const memoryModel = await redisMemory(redis);
  const answers: string[] = [];
  for (const c of checks) {
    const got = await answer(c.id);
    const same = JSON.stringify(got) === JSON.stringify(c.expected);
    answers.push(
      `user ${fmtInt(c.id)} (row ${fmtInt(c.row)}): ${same ? 'the expected top 10' : `**${JSON.stringify(got)}, expected ${JSON.stringify(c.expected)}**`}`,
    );
    if (!same) throw new Error(`user ${c.id}: ${JSON.stringify(got)}, expected ${JSON.stringify(c.expected)}`);
  }

  // Load: autocannon against the hello-world and recd, alternating, settings.rounds rounds.
  const headers = { authorization: `Bearer ${stack.token}` };
  const recdUrl = stack.base.replace(/\/v1$/, '');
  const targets: Record<'hello' | 'recd', Target> = {
    hello: { url: `http://${HOST}:${helloPort}/`, method: 'GET', headers: {} },
    recd: {
      url: `${recdUrl}/v1/recommendation/users/1/items/?amt=${AMT}`,
      method: 'GET',
      headers,
      randomPath: { prefix: '/v1/recommendation/users/', max: USERS, suffix: `/items/?amt=${AMT}` },
    },
  };
  const runs: Record<'hello' | 'recd', Measured[]> = { hello: [], recd: [] };
  if (settings.warmupSeconds > 0) await runAutocannon(targets.recd, 1, settings.warmupSeconds);
  for (let round = 1; round <= settings.rounds; round++) {
    for (const which of ['hello', 'recd'] as const) {
      const m = await runAutocannon(targets[which], 1, settings.seconds);
      runs[which].push(m);
      log(
        `  round ${round} ${which}: ${fmtInt(m.rps)} req/s, p50 ${m.p50ms} ms, p99 ${m.p99ms} ms, non-2xx ${m.non2xx}, errors ${m.errors}`,
      );
    }
  }
  const served = await rssOf(stack.pid);
  const med = (which: 'hello' | 'recd', f: (m: Measured) => number) => median(runs[which].map(f));
  const bad = runs.recd.reduce((s, m) => s + m.non2xx + m.errors, 0);

  out.push(
    `### A model of ${fmtInt(USERS)} users × ${fmtInt(ITEMS)} items × ${FACTORS} factors`,
    '',
    `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}; ${new Date().toISOString()}; ${gitState()}`,
    `- Upload over HTTP (no values, ids only): items ${itemSeconds.toFixed(1)} s; users ${fmtInt(USER_BATCH)} a request, ${IN_FLIGHT} in flight: ${userSeconds.toFixed(1)} s = **${fmtInt(USERS / userSeconds)} users/s**; ${retried} request(s) retried after a 503`,
    `- Redis used_memory: ${mib(memory0.used)} at the start, ${mib(memoryUsers.used)} with the users and items (**${((memoryUsers.used - memory0.used) / USERS).toFixed(1)} bytes per user**), ${mib(memoryModel.used)} with the model stored (RSS ${mib(memoryModel.rss)})`,
    `- Model: **${fmtInt(bytes)} bytes (${mib(bytes)}) in ${partCount(bytes)} Redis parts**; built here in ${buildSeconds.toFixed(1)} s; published (every part written, then made current and announced) in ${publishSeconds.toFixed(1)} s`,
    `- Load: recd served the big model **${loadSeconds.toFixed(1)} s after its announcement** (polled every ${LOAD_POLL_MS} ms; the model before it served meanwhile)`,
    `- recd RSS (one serving process): ${rssText(before)} before the big model, ${mib(peakDuringLoad)} at most while loading (sampled), ${rssText(after)} once it serves, ${rssText(served)} after the load runs`,
    `- Answers before any load: ${answers.join('; ')}`,
    '',
    `| Target | Median req/s | × hello-world | p50 ms (median) | p99 ms (median) | Rounds req/s | non-2xx + errors |`,
    '|---|---:|---:|---:|---:|---|---:|',
    `| hello-world (uWS) | ${fmtInt(med('hello', (m) => m.rps))} | 1 | ${fmt(
      med('hello', (m) => m.p50ms),
      1,
    )} | ${fmt(
      med('hello', (m) => m.p99ms),
      1,
    )} | ${runs.hello.map((m) => fmtInt(m.rps)).join(', ')} | ${runs.hello.reduce((s, m) => s + m.non2xx + m.errors, 0)} |`,
    `| GET recommendation/users/<1..${fmtInt(USERS)}>/items/?amt=${AMT} | ${fmtInt(med('recd', (m) => m.rps))} | ${fmt(med('recd', (m) => m.rps) / med('hello', (m) => m.rps), 2)} | ${fmt(
      med('recd', (m) => m.p50ms),
      1,
    )} | ${fmt(
      med('recd', (m) => m.p99ms),
      1,
    )} | ${runs.recd.map((m) => fmtInt(m.rps)).join(', ')} | ${bad} |`,
    '',
    `autocannon, ${settings.connections} connections, no pipelining, ${settings.seconds} s a run, ${settings.rounds} round(s) alternating hello-world and recd.`,
    '',
  );
  if (bad > 0) throw new Error(`${bad} recommendation requests failed under load`);
} finally {
  redis.disconnect();
  await stop(hello);
  await stack.stop();
}
process.stdout.write(`${out.join('\n')}\n`);
