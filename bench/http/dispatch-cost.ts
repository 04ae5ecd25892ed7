// The JavaScript cost of one request through recd's pipeline without sockets: the dispatcher
// (routing, authentication, validation, decoding, the handler, encoding) called in-process with 64
// requests in flight, against a private redis-server. What the HTTP benchmarks cannot separate from
// uWebSockets.js and the kernel: CPU µs per request of recd's own code (and ioredis).
//
//   npx tsc -p . && node dist/bench/http/dispatch-cost.js        (BENCH_SECONDS=5 BENCH_ROUNDS=5)
//
// Scenarios: f. POST users/<u>/interactions/<i>/ (as bench/http/run.ts's scenario f); c. POST login/jwt/.
// BENCH_SCENARIOS=f runs a subset.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/env.js';
import type { PlainRequest } from '../../src/http/dispatch.js';
import { startApp } from '../../src/main.js';
import { newRequestId } from '../../src/http/request-id.js';
import { startRedisServer } from '../../src/store/redis-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IN_FLIGHT = 64;
const EMAIL = 'root@bench.local';
const PASSWORD = 'Root-password-1';

const dir = mkdtempSync(join(tmpdir(), 'recd-dispatch-'));
const redis = await startRedisServer(join(dir, 'redis'));
const app = await startApp(
  loadConfig({ PORT: '0', REDIS_URL: redis.url, RECD_ROOT_EMAIL: EMAIL, RECD_ROOT_PASSWORD: PASSWORD, LOG_LEVEL: 'silent' }),
  pino({ level: 'silent' }),
);
const d = app.dispatcher;

const plain = (method: string, url: string, token: string, body?: unknown): PlainRequest => ({
  method,
  url,
  requestId: newRequestId(),
  query: '',
  authorization: token ? `Bearer ${token}` : '',
  contentType: body === undefined ? '' : 'application/json',
  contentEncoding: '',
  acceptEncoding: '',
  remoteAddress: '127.0.0.1',
  idempotencyKey: '',
  accept: '*/*',
  body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
});
async function json(req: PlainRequest): Promise<any> {
  const out = await d.dispatch(req);
  if (out.status >= 300) throw new Error(`${req.method} ${req.url}: ${out.status} ${String(out.body)}`);
  return out.body === '' ? undefined : JSON.parse(String(out.body));
}

const root = (await json(plain('POST', '/v1/login/root/', '', { email: EMAIL, password: PASSWORD }))).token as string;
const db = (
  await json(plain('POST', '/v1/databases/', root, { name: 'b', description: 'b', item_id_type: 'uint32', user_id_type: 'uuid' }))
).id as string;
await json(plain('POST', '/v1/accounts/individual/', root, { email: 'be@bench.local', role: 'backend', password: 'Backend-password-1' }));
const token = (
  await json(plain('POST', '/v1/login/individual/', '', { email: 'be@bench.local', password: 'Backend-password-1', db_id: db }))
).token as string;

const all: Record<string, PlainRequest> = {
  f: plain('POST', '/v1/users/00000000-0000-4000-8000-000000000077/interactions/4242/', token, { interaction_type: 'view' }),
  c: plain('POST', '/v1/login/jwt/', token),
};
// BENCH_SCENARIOS=f runs a subset (for a CPU profile of one).
const wanted = (process.env.BENCH_SCENARIOS ?? Object.keys(all).join(',')).split(',');
const scenarios = Object.fromEntries(Object.entries(all).filter(([id]) => wanted.includes(id)));

// `IN_FLIGHT` clients, each sending its next request when the previous one is answered.
async function run(req: PlainRequest, seconds: number): Promise<{ perSecond: number; cpuUs: number }> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const cpu0 = process.cpuUsage();
  const client = async () => {
    while (Date.now() < end) {
      const out = d.dispatch(req);
      const o = out instanceof Promise ? await out : out;
      if (o.status >= 300) throw new Error(`status ${o.status}: ${String(o.body)}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, client));
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: done / seconds, cpuUs: (cpu.user + cpu.system) / done };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await run(Object.values(scenarios)[0]!, 1);
const results: Record<string, { rps: number[]; us: number[] }> = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const [id, req] of Object.entries(scenarios)) {
    const m = await run(req, SECONDS);
    (results[id] ??= { rps: [], us: [] }).rps.push(m.perSecond);
    results[id]!.us.push(m.cpuUs);
  }
}
for (const [id, m] of Object.entries(results)) {
  process.stdout.write(
    `${id}: median ${median(m.us).toFixed(2)} µs CPU per request (rounds ${m.us.map((u) => u.toFixed(2)).join(', ')}), ${Math.round(median(m.rps))} req/s\n`,
  );
}
await app.close();
await redis.stop();
rmSync(dir, { recursive: true, force: true });
