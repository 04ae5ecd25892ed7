// Storage faults of a Redis that is there but cannot keep recd's data (docs/security.md, "Storage
// faults"): one at its maxmemory (noeviction) answers every write 503, counted and logged once per
// burst, /readyz saying why; one with an evicting maxmemory-policy is refused at start, and while
// serving its writes answer 503 until the policy is noeviction again.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import t from 'tap';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { Api, type Res } from '../helpers/api.js';
import { run } from '../helpers/cli.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { ON_CLUSTER, ROOT_EMAIL, ROOT_PASSWORD, startRedis, startStack } from '../helpers/stack.js';

type Line = Record<string, any>;
const lines: Line[] = [];
const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });

if (ON_CLUSTER) {
  // CONFIG SET of one server; the cluster's primaries are each read the same way (redis-memory.ts).
  t.pass('not on the test cluster');
  process.exit(0);
}

const stack = await startStack({ RECD_METRICS_PORT: '0' }, undefined, logger);
t.teardown(() => stack.close());
const { api } = stack;
const probes = new Api(`http://127.0.0.1:${stack.app.port}`);
const redis = stack.redis as Redis;
const root = await rootToken(api);
const db = await createDatabase(api, root);
const backend = await tokenFor(api, root, 'backend', db);

const scrape = async () => (await fetch(`http://127.0.0.1:${stack.app.metricsPort}/metrics`)).text();
const faultCount = (text: string, fault: string) =>
  Number(new RegExp(`^recd_storage_faults_total\\{fault="${fault}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);

// Every kind of write a full Redis refuses: a login, a database, items, ratings, a retrain.
const writes: [string, () => Promise<Res>][] = [
  ['login', () => api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })],
  [
    'POST databases/',
    () =>
      api.post(
        'databases/',
        { name: `db-${randomUUID()}`, description: 'x', item_id_type: 'uint32', user_id_type: 'uuid' },
        { token: root },
      ),
  ],
  ['PUT items-bulk/properties/', () => api.put('items-bulk/properties/', { items: [{ item_id: 1 }] }, { token: backend })],
  [
    'PUT ratings-bulk/',
    () =>
      api.put(
        'ratings-bulk/',
        { ratings: [{ user_id: randomUUID(), item_id: 1, rating: 5, timestamp: 1_700_000_000 }] },
        { token: backend },
      ),
  ],
  ['POST tasks/ml_model_retrain/', () => api.post('tasks/ml_model_retrain/', undefined, { token: backend })],
];

async function until(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

t.test('Redis full (maxmemory, noeviction): 503 on every write, counted, logged once, /readyz says why', async (t) => {
  const before = faultCount(await scrape(), 'full');
  await redis.config('SET', 'maxmemory', '1'); // any use is over it: every write is refused with OOM
  t.teardown(() => redis.config('SET', 'maxmemory', '0'));
  for (let round = 0; round < 3; round++) {
    for (const [name, write] of writes) {
      const r = await write();
      t.equal(r.status, 503, `${name}: ${r.text}`);
      t.equal(r.body.error_name, 'ServerUnavailable', name);
      t.equal(r.body.error_data.name, 'STORAGE_UNAVAILABLE', name);
      t.equal(r.body.error_data.error, 'storage full', name);
    }
  }
  t.equal((await api.get('pretrained-ml/trained-models/', { token: backend })).status, 200, 'reads are served');
  const ready = await probes.get('readyz');
  t.equal(ready.status, 503);
  t.match(ready.body.reason, /^Redis 127\.0\.0\.1:\d+ is full: used memory \d+ > maxmemory 1; writes are refused$/);
  t.equal(faultCount(await scrape(), 'full') - before, 3 * writes.length, 'each refused request counted');
  // The request counts' flush (each second) fails too: part of the same burst, not a line each.
  await new Promise((r) => setTimeout(r, 1200));
  t.notOk(
    lines.some((l) => l.msg === 'call counts not flushed'),
    'background flushes logged with the burst',
  );
  const logged = lines.filter((l) => l.fault === 'full' && l.level === 40);
  t.equal(logged.length, 1, 'logged once for the burst');
  t.notOk(
    lines.some((l) => l.msg === 'unhandled error'),
    'no 500',
  );

  await redis.config('SET', 'maxmemory', '0');
  t.equal((await probes.get('readyz')).status, 200, 'ready again once Redis has room');
  for (const [name, write] of writes) t.ok((await write()).status < 300, `${name} served again`);
});

t.test('an evicting policy while serving: writes 503 and /readyz not ready until noeviction again', async (t) => {
  const before = faultCount(await scrape(), 'evicting');
  await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
  t.teardown(() => redis.config('SET', 'maxmemory-policy', 'noeviction'));
  const ready = await probes.get('readyz');
  t.equal(ready.status, 503);
  t.match(
    ready.body.reason,
    /^Redis 127\.0\.0\.1:\d+ has maxmemory-policy allkeys-lru: it may evict recd's data; set maxmemory-policy noeviction$/,
  );
  // The watch reads the policy every second; the probe above read it too.
  await until('writes refused', async () => (await writes[3]![1]()).status === 503);
  for (const [name, write] of writes) {
    const r = await write();
    t.equal(r.status, 503, `${name}: ${r.text}`);
    t.equal(r.body.error_data.error, 'storage evicting', name);
  }
  t.equal((await api.get('pretrained-ml/trained-models/', { token: backend })).status, 200, 'reads are served');
  t.ok(faultCount(await scrape(), 'evicting') - before >= writes.length, 'counted');
  t.equal(lines.filter((l) => l.fault === 'evicting' && l.level === 40).length, 1, 'logged once for the burst');

  await redis.config('SET', 'maxmemory-policy', 'volatile-lru');
  t.match((await probes.get('readyz')).body.reason, /maxmemory-policy volatile-lru/, 'volatile-* policies are refused too');
  await redis.config('SET', 'maxmemory-policy', 'noeviction');
  t.equal((await probes.get('readyz')).status, 200, 'ready once noeviction again');
  await until('writes served again', async () => (await writes[3]![1]()).status === 200);
});

t.test('refuses to start on an evicting Redis, with a message and exit code 1', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const own = new Redis(server.url);
  t.teardown(() => own.disconnect());
  for (const policy of ['allkeys-lru', 'volatile-ttl']) {
    await own.config('SET', 'maxmemory-policy', policy);
    const p = run(['serve', '--workers', '1'], {
      REDIS_URL: server.url,
      PORT: '0',
      RECD_ROOT_EMAIL: ROOT_EMAIL,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    });
    t.equal(await p.exited, 1, policy);
    t.match(
      p.out(),
      new RegExp(
        `recd: Redis 127\\.0\\.0\\.1:\\d+ has maxmemory-policy ${policy}: it may evict recd's data; set maxmemory-policy noeviction \\(recd refuses to start`,
      ),
      policy,
    );
    t.notMatch(p.out(), /\n\s+at /, 'no stack trace');
  }
});
