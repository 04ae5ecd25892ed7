// Ratings ingest, JSON against pickle in the same run: PUT ratings-bulk/ in batches of 16,384 (what
// existing Python clients send) with concurrent clients, against a recd child process on a private
// redis-server. Pickle bodies are what those clients send: zlib(pickle protocol 4) of
// {'ratings': numpy structured array (user_id u4, item_id u4, rating f4, timestamp f8)}, labelled
// `Content-Encoding: gzip`. Rounds alternate JSON and pickle, each round with new values.
// Usage: npx tsc -p . && node dist/bench/http/bulk-ratings.js   (BENCH_RATINGS, BENCH_CLIENTS, BENCH_ROUNDS, BENCH_CODECS)
import os from 'node:os';
import { Redis } from 'ioredis';
import { deflateSync } from 'node:zlib';
import { encodePickle, NumpyRecords } from '../../src/codecs/pickle/encode.js';
import { redisCpuSeconds, scriptMicros } from '../lib/private-redis.js';
import { startBenchStack, type BenchStack } from '../lib/recd-stack.js';
import { cpuSeconds } from '../lib/cpu.js';
import { median } from '../lib/report.js';

const RATINGS = Number(process.env.BENCH_RATINGS ?? 1_000_000);
const BATCH = 16_384;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// BENCH_CODECS=pickle (or json) runs one codec only, for profiling.
const CODECS = (process.env.BENCH_CODECS ?? 'json,pickle').split(',');
const USERS = 50_000;
const ITEMS = 20_000;

type Codec = 'json' | 'pickle';

// Ratings of users in order, ~20 per user, as exports from an application's database come.
function rows(round: number, start: number) {
  const n = Math.min(start + BATCH, RATINGS) - start;
  const user_id = new Uint32Array(n);
  const item_id = new Uint32Array(n);
  const rating = new Float32Array(n);
  const timestamp = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const k = start + j;
    user_id[j] = (Math.floor(k / 20) % USERS) + 1;
    item_id[j] = ((k * 7919 + round) % ITEMS) + 1;
    rating[j] = 1 + (k % 10);
    timestamp[j] = 1_700_000_000 + k;
  }
  return { user_id, item_id, rating, timestamp };
}

function body(codec: Codec, round: number, start: number): Uint8Array | string {
  const r = rows(round, start);
  if (codec === 'pickle') return deflateSync(encodePickle({ ratings: new NumpyRecords(r) }));
  const ratings = [];
  for (let j = 0; j < r.user_id.length; j++)
    ratings.push({ user_id: r.user_id[j], item_id: r.item_id[j], rating: r.rating[j], timestamp: r.timestamp[j] });
  return JSON.stringify({ ratings });
}

async function put(stack: BenchStack, codec: Codec, payload: Uint8Array | string): Promise<void> {
  const type = codec === 'pickle' ? 'application/xminds-pkl' : 'application/json';
  const res = await fetch(`${stack.base}/ratings-bulk/`, {
    method: 'PUT',
    headers: {
      'content-type': type,
      accept: type,
      authorization: `Bearer ${stack.token}`,
      ...(codec === 'pickle' ? { 'content-encoding': 'gzip' } : {}),
    },
    body: typeof payload === 'string' ? payload : new Blob([payload as Uint8Array<ArrayBuffer>]),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`PUT ratings-bulk/ over ${codec}: ${res.status}`);
}

// Redis's CPU seconds (user + sys) and its script time (evalsha, µs) so far.
async function redisCost(redis: Redis): Promise<{ cpu: number; script: number }> {
  return { cpu: await redisCpuSeconds(redis), script: await scriptMicros(redis) };
}

async function round(stack: BenchStack, redis: Redis, codec: Codec, r: number): Promise<number> {
  const bodies: (Uint8Array | string)[] = [];
  for (let s = 0; s < RATINGS; s += BATCH) bodies.push(body(codec, r, s));
  let next = 0;
  const before = await redisCost(redis);
  const recdBefore = cpuSeconds(stack.pid) ?? NaN;
  const selfBefore = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < bodies.length) await put(stack, codec, bodies[next++]!);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const after = await redisCost(redis);
  const recdCpu = (cpuSeconds(stack.pid) ?? NaN) - recdBefore;
  const self = process.cpuUsage(selfBefore);
  const bytes = bodies.reduce((n, b) => n + (typeof b === 'string' ? Buffer.byteLength(b) : b.length), 0);
  console.log(
    `${codec} round ${r + 1}: ${RATINGS} ratings in ${seconds.toFixed(2)} s = ${Math.round(RATINGS / seconds)} ratings/s (${(bytes / 1e6).toFixed(1)} MB sent); `
      + `CPU µs per rating: recd ${((1e6 * recdCpu) / RATINGS).toFixed(2)}, Redis ${((1e6 * (after.cpu - before.cpu)) / RATINGS).toFixed(2)} `
      + `(scripts ${((after.script - before.script) / RATINGS).toFixed(2)}), client ${((self.user + self.system) / RATINGS).toFixed(2)}`,
  );
  return RATINGS / seconds;
}

async function main() {
  const stack = await startBenchStack();
  const redis = new Redis(stack.redisUrl);
  const rates: Record<Codec, number[]> = { json: [], pickle: [] };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      // Both codecs see the same store size: JSON writes round 2r's values, pickle round 2r+1's.
      if (CODECS.includes('json')) rates.json.push(await round(stack, redis, 'json', 2 * r));
      if (CODECS.includes('pickle')) rates.pickle.push(await round(stack, redis, 'pickle', 2 * r + 1));
    }
  } finally {
    redis.disconnect();
    await stack.stop();
  }
  const json = median(rates.json);
  const pickle = median(rates.pickle);
  console.log(
    `median json ${Math.round(json)} ratings/s, pickle ${Math.round(pickle)} ratings/s: pickle/json ${(pickle / json).toFixed(2)}× `
      + `(${RATINGS} ratings per round, ${USERS} users, ${ITEMS} items, batches of ${BATCH}, ${CLIENTS} clients, ${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
