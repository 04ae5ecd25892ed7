// What deleting a database costs (issue 21, docs/scale.md): its keys are listed from its own records
// (src/store/database-keys.ts), so the cost follows the database's keys, not the keyspace's. Beside it,
// the SCAN MATCH of the keyspace the delete used before (listing only, nothing unlinked), which walks
// every key of every database.
//
//   npm run build && node dist/bench/scale/delete-database.js
//
// A private redis-server holds another database of BENCH_DELETE_OTHER_USERS users (default 500,000)
// and the one deleted, of 1,000 then BENCH_DELETE_USERS users (default 100,000). Each user has the keys
// ratings-bulk writes (its dense index and id, a ratings set and records), one in four a list of
// interaction references; written here directly, pipelined, in the layout of src/store/keys.ts.
// Markdown report on stdout.
import os from 'node:os';
import type { Redis } from 'ioredis';
import { unlinkDatabase } from '../../src/store/database-keys.js';
import { keys } from '../../src/store/keys.js';
import { redisCpuSeconds, withPrivateRedis } from '../lib/private-redis.js';
import { fmtInt, gitState } from '../lib/report.js';

const OTHER_USERS = Number(process.env.BENCH_DELETE_OTHER_USERS ?? 500_000);
const USERS = Number(process.env.BENCH_DELETE_USERS ?? 100_000);
const TASK_NAMES = ['ml_model_retrain', 'ml_new_items', 'precomputed_tables'];

async function fill(redis: Redis, db: string, users: number): Promise<void> {
  const ratings = keys.userRatingsPrefix(db);
  const refs = keys.interactionRefsPrefix(db, 'user');
  for (let from = 0; from < users; from += 5_000) {
    const p = redis.pipeline();
    for (let u = from; u < Math.min(users, from + 5_000); u++) {
      const id = `user-${u}`;
      p.hset(keys.entityIds(db, 'user'), u, id).hset(keys.entityIndex(db, 'user'), id, u);
      p.zadd(`${ratings}${u}:t`, 1, u % 97, 2, u % 89, 3, u % 83).hset(
        `${ratings}${u}:v`,
        u % 97,
        'x'.repeat(17),
        u % 89,
        'x'.repeat(17),
        u % 83,
        'x'.repeat(17),
      );
      if (u % 4 === 0) p.rpush(refs + id, '1 0', '1 1');
    }
    await p.exec();
  }
  await redis.set(keys.entityNext(db, 'user'), users);
  await redis.set(keys.database(db), 'x');
}

// Calls and µs of every command since the last CONFIG RESETSTAT.
async function commandStats(redis: Redis): Promise<{ calls: number; byName: Record<string, number> }> {
  const byName: Record<string, number> = {};
  let calls = 0;
  for (const m of (await redis.info('commandstats')).matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) {
    byName[m[1]!] = Number(m[2]);
    calls += Number(m[2]);
  }
  return { calls, byName };
}

async function measure(
  redis: Redis,
  what: () => Promise<number>,
): Promise<{ ms: number; cpu: number; calls: number; byName: Record<string, number>; n: number }> {
  await redis.config('RESETSTAT');
  const cpu0 = await redisCpuSeconds(redis);
  const t0 = performance.now();
  const n = await what();
  const ms = performance.now() - t0;
  const cpu = (await redisCpuSeconds(redis)) - cpu0;
  const stats = await commandStats(redis);
  return { ms, cpu, n, ...stats };
}

async function scanPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let found = 0;
  do {
    const [next, page] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    found += page.length;
  } while (cursor !== '0');
  return found;
}

const rows: string[] = [];
await withPrivateRedis('delete-bench', async (redis) => {
  await fill(redis, 'other', OTHER_USERS);
  for (const users of [1_000, USERS]) {
    const db = `doomed-${users}`;
    await fill(redis, db, users);
    const total = await redis.dbsize();
    const scan = await measure(redis, () => scanPrefix(redis, keys.databasePrefix(db)));
    const del = await measure(redis, () => unlinkDatabase(redis, db, TASK_NAMES));
    const left = await scanPrefix(redis, keys.databasePrefix(db));
    if (left !== 0) throw new Error(`${left} keys of ${db} left`);
    const named = (s: { byName: Record<string, number> }) =>
      Object.entries(s.byName)
        .filter(([n]) => n !== 'info' && n !== 'config|resetstat')
        .map(([n, c]) => `${n} ${fmtInt(c)}`)
        .join(', ');
    rows.push(
      `| ${fmtInt(users)} | ${fmtInt(scan.n)} | ${fmtInt(total)} | ${fmtInt(del.ms)} ms, Redis ${fmtInt(del.cpu * 1000)} ms CPU (${named(del)}; ${fmtInt(del.n)} keys removed) | ${fmtInt(scan.ms)} ms, Redis ${fmtInt(scan.cpu * 1000)} ms CPU (${named(scan)}) |`,
    );
  }
});

process.stdout.write(
  [
    `### Deleting a database: listed from its records vs a SCAN of the keyspace`,
    '',
    `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; ${new Date().toISOString()}; ${gitState()}`,
    `- One Redis holding another database of ${fmtInt(OTHER_USERS)} users besides the one deleted; per user its index and id, a ratings set and records, one in four a list of interaction references.`,
    '',
    '| users deleted | their keys | keys in Redis | delete (listed from its records, unlinked) | SCAN MATCH of the keyspace (listing only) |',
    '|---:|---:|---:|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
