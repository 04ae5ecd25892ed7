// Integration-test stack: a private redis-server from redis.conf on a free port in a temp dir,
// and the real recd server on a free port, talking HTTP.
// RECD_TEST_REDIS=cluster runs every stack of a test file on one Redis Cluster instead (three
// primaries with a replica each, ../harness/redis-cluster.ts), started with the file's first stack and stopped
// after its last test; it is emptied for each stack, pair or store that would have had a fresh Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { Cluster, Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { loadConfig } from '../../src/config/env.js';
import { parseRedisTarget } from '../../src/config/redis-target.js';
import { startApp, type RunningApp } from '../../src/main.js';
import { connectRedis, endRefreshesOnDisconnect, type Connection } from '../../src/store/redis.js';
import { startRedisServer, type EmbeddedRedis } from '../../src/store/redis-server.js';
import { Api } from './api.js';
import { reportHeldExit } from './exit-report.js';
import { startRedisCluster, type TestCluster } from '../harness/redis-cluster.js';

export const ON_CLUSTER = process.env.RECD_TEST_REDIS === 'cluster';
const CLUSTER_JWT_SECRET = 'the secret of test stacks on the shared test cluster';
// Every test file that uses these helpers (not the worker threads some of them run in).
if (isMainThread) reportHeldExit();
let sharedCluster: Promise<TestCluster> | undefined;

// The test file's cluster. tap runs teardowns last registered first, so this one, registered by the
// first stack, runs after the tests' own (which stop their recd processes).
export function testCluster(): Promise<TestCluster> {
  if (!sharedCluster) {
    const starting = startRedisCluster();
    sharedCluster = starting;
    void import('tap').then(({ default: t }) => t.teardown(async () => (await starting.catch(() => undefined))?.stop()));
  }
  return sharedCluster;
}

// A cluster in the shape of a private server, to give startStack (its url is the cluster's). Tests
// that stop or pause their Redis do not run on it.
export function clusterAsServer(c: TestCluster): EmbeddedRedis {
  return {
    url: c.url,
    port: c.nodes[0]!.port,
    pid: c.nodes[0]!.pid,
    stop: () => Promise.reject(new Error('a test cluster is stopped by whoever started it')),
  };
}

// The shared cluster, emptied.
async function freshCluster(): Promise<EmbeddedRedis> {
  const c = await testCluster();
  await c.flush();
  return clusterAsServer(c);
}

// A client for looking at what the server stored, on one Redis or a cluster.
export function lookAt(url: string): Connection {
  const target = parseRedisTarget(url);
  return target.kind === 'cluster' ? wholeCluster(endRefreshesOnDisconnect(new Cluster(target.nodes))) : new Redis(url);
}

// A cluster client would send KEYS or SCAN to one node at random: here they ask every primary, so
// tests of what is stored (or left after a delete) read the whole cluster. SCAN answers every match
// at once, with the cursor that ends the scan. (Node-local commands, CLIENT LIST and KILL, still go to
// one node: tests using them do not run on a cluster.)
function wholeCluster(cluster: Cluster): Cluster {
  const matching = async (pattern: string) => {
    await cluster.ping(); // connected: the primaries are known
    return (await Promise.all(cluster.nodes('master').map((n) => n.keys(pattern)))).flat();
  };
  const scan = async (_cursor: string, ...args: (string | number)[]) => {
    const at = args.findIndex((a) => String(a).toUpperCase() === 'MATCH');
    return ['0', await matching(at >= 0 ? String(args[at + 1]) : '*')];
  };
  Object.assign(cluster, { keys: matching, scan });
  return cluster;
}

export const ROOT_EMAIL = 'root@test.local';
export const ROOT_PASSWORD = 'Root-password-1';
export const PASSWORD = 'Valid-password-1';

export interface Stack {
  api: Api;
  app: RunningApp;
  redisServer: EmbeddedRedis;
  redis: Connection; // for looking at what the server stored
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<{ server: EmbeddedRedis; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-test-'));
  return { server: await startRedisServer(join(dir, 'redis')), dir };
}

// A private redis-server and a client the way recd connects (for tests of one store), both gone
// when `t` ends.
export async function storeRedis(t: { teardown(fn: () => unknown): void }, name: string): Promise<Connection> {
  if (ON_CLUSTER) {
    const redis = connectRedis((await freshCluster()).url, { commandTimeoutMs: 10_000, name }) as Cluster;
    t.teardown(() => redis.disconnect());
    return wholeCluster(redis);
  }
  const { server, dir } = await startRedis();
  const redis = connectRedis(server.url, { commandTimeoutMs: 10_000, name });
  t.teardown(async () => {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return redis;
}

// logger: for tests that read what recd logs (default: pino at LOG_LEVEL, silent).
export async function startStack(env: Record<string, string> = {}, shared?: EmbeddedRedis, logger?: Logger): Promise<Stack> {
  const own = shared || ON_CLUSTER ? undefined : await startRedis();
  const redisServer = shared ?? own?.server ?? (await freshCluster());
  const fullEnv = {
    PORT: '0',
    REDIS_URL: redisServer.url,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    LOG_LEVEL: 'silent',
    // Test files run side by side, several of them busy on the CPU: training threads at a lower
    // priority than theirs would wait for them (seconds become minutes). test/unit/thread-priority
    // checks the priority itself.
    RECD_TRAINING_NICE: '0',
    // Tests wait for the model of what they wrote: at once (test/integration/training-quiet checks the wait).
    RECD_TRAINING_QUIET_SECONDS: '0',
    // On the cluster, the stacks of a file share one Redis that each new stack empties: a generated
    // secret would go with it, and the running stacks would then rightly refuse the tokens they issued
    // (docs/security.md, "Storage faults"). A configured secret is never stored, so it survives.
    ...(ON_CLUSTER && !shared ? { RECD_JWT_SECRET: CLUSTER_JWT_SECRET } : {}),
    ...env,
  };
  const app = await startApp(loadConfig(fullEnv), logger ?? pino({ level: fullEnv.LOG_LEVEL }));
  const redis = lookAt(redisServer.url);
  return {
    api: new Api(`http://127.0.0.1:${app.port}/v1`),
    app,
    redisServer,
    redis,
    env: fullEnv,
    async close() {
      await app.close();
      redis.disconnect();
      if (own) {
        await own.server.stop();
        rmSync(own.dir, { recursive: true, force: true });
      }
    },
  };
}

// Two recd processes sharing one private redis-server (what several deployed processes look like).
export async function startPair(env: Record<string, string> = {}): Promise<{ a: Stack; b: Stack; close(): Promise<void> }> {
  const own = ON_CLUSTER ? undefined : await startRedis();
  const server = own?.server ?? (await freshCluster());
  const a = await startStack(env, server);
  const b = await startStack(env, server);
  let closed: Promise<void> | undefined;
  return {
    a,
    b,
    // Once, whoever asks first (a test that needs the pair gone, its teardown).
    close: () =>
      (closed ??= (async () => {
        await a.close();
        await b.close();
        if (own) {
          await own.server.stop();
          rmSync(own.dir, { recursive: true, force: true });
        }
      })()),
  };
}
