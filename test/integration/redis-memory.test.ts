// A Redis Cluster's maxmemory-policy is every primary's: one evicting primary is enough to refuse
// the start and to stop writes (src/store/redis-memory.ts; the single-server cases are in
// storage-faults.test.ts, through the server).
import t from 'tap';
import { pino } from 'pino';
import { checkPolicyAtStart, PolicyWatch } from '../../src/store/redis-memory.js';
import { connectRedis, type Cluster } from '../../src/store/redis.js';
import { testCluster } from '../helpers/stack.js';

const cluster = await testCluster();
const redis = connectRedis(cluster.url, { commandTimeoutMs: 10_000 }) as Cluster;
t.teardown(() => redis.disconnect());
const silent = pino({ level: 'silent' });

t.test('one evicting primary of three: refused at start, and seen by the watch', async (t) => {
  await redis.ping();
  const primaries = redis.nodes('master');
  t.equal(primaries.length, 3);
  await checkPolicyAtStart(redis, 5000, silent); // all noeviction: no error
  const last = primaries[2]!;
  await last.config('SET', 'maxmemory-policy', 'volatile-lru');
  t.teardown(() => last.config('SET', 'maxmemory-policy', 'noeviction'));
  await t.rejects(checkPolicyAtStart(redis, 5000, silent), {
    name: 'UnsafeEvictionPolicy',
    message: new RegExp(`^Redis 127\\.0\\.0\\.1:${last.options.port} has maxmemory-policy volatile-lru`),
  });
  const watch = new PolicyWatch(redis, silent);
  await watch.read();
  t.match(watch.unsafe, `127.0.0.1:${last.options.port} has maxmemory-policy volatile-lru`);
  await last.config('SET', 'maxmemory-policy', 'noeviction');
  await watch.read();
  t.equal(watch.unsafe, undefined, 'safe again');
});
