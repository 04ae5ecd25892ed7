// A real Redis Cluster for tests: primaries with a replica each, every node a redis-server from the
// project's redis.conf (cluster mode on) under its guard, as the embedded server runs, on free ports in
// a temp dir; `redis-cli --cluster create` assigns the slots. Never on port 6379.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/store/redis-server.js';

const run = promisify(execFile);

export interface TestCluster {
  url: string; // redis+cluster://127.0.0.1:<port>,… (every node)
  nodes: EmbeddedRedis[];
  // The keys matching `pattern` on each node, primaries and replicas (KEYS node by node: a test's look
  // at what is stored where), in the order of `nodes`.
  keysByNode(pattern: string): Promise<string[][]>;
  // Empties every primary (the replicas follow): a fresh cluster for the next test.
  flush(): Promise<void>;
  stop(): Promise<void>;
}

// How long the cluster may take to agree on its slots after `--cluster create`.
const FORMED_MS = 60_000;

// A node on a free port, its cluster bus (cluster-port) on another. A port found free may be taken
// before redis-server binds it (other tests start servers meanwhile): then the node starts again on
// other ports.
async function startNode(dir: string, taken: Set<number>): Promise<EmbeddedRedis> {
  for (let attempt = 1; ; attempt++) {
    const pick = async () => {
      let p: number;
      do p = await freePort();
      while (taken.has(p) || p === 6379);
      taken.add(p);
      return p;
    };
    const port = await pick();
    const bus = await pick();
    try {
      return await startRedisServer(dir, port, [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-port',
        String(bus),
        '--cluster-node-timeout',
        '5000',
        '--appendonly',
        'yes',
      ]);
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/.test((err as Error).message)) throw err;
    }
  }
}

export async function startRedisCluster(primaries = 3, replicasEach = 1): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-cluster-'));
  const count = primaries * (1 + replicasEach);
  const taken = new Set<number>();
  const nodes: EmbeddedRedis[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const started = await Promise.allSettled(Array.from({ length: count }, (_, k) => startNode(join(dir, `node-${k}`), taken)));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      '--cluster-replicas',
      String(replicasEach),
      '--cluster-yes',
    ]);
    await formed(nodes, count);
  } catch (err) {
    await stop();
    throw err;
  }
  const eachNode = async <T>(fn: (node: Redis) => Promise<T>): Promise<T[]> => {
    const clients = nodes.map((n) => new Redis({ host: '127.0.0.1', port: n.port, lazyConnect: true, maxRetriesPerRequest: 1 }));
    try {
      return await Promise.all(clients.map(fn));
    } finally {
      for (const c of clients) c.disconnect();
    }
  };
  return {
    url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    keysByNode: (pattern) => eachNode(async (node) => (await node.keys(pattern)).sort()),
    // A replica refuses FLUSHALL (READONLY) and follows its primary's.
    flush: async () =>
      void (await eachNode((node) =>
        node.flushall().catch((err: Error) => (/READONLY/.test(err.message) ? undefined : Promise.reject(err))),
      )),
    stop,
  };
}

// Every node says cluster_state:ok, knows every other and sees every slot assigned.
async function formed(nodes: EmbeddedRedis[], count: number): Promise<void> {
  const deadline = Date.now() + FORMED_MS;
  const clients = nodes.map((n) => new Redis({ host: '127.0.0.1', port: n.port, lazyConnect: true, maxRetriesPerRequest: 1 }));
  try {
    for (;;) {
      const infos = await Promise.all(clients.map((c) => c.cluster('INFO') as Promise<string>));
      const ok = infos.every(
        (info) =>
          /cluster_state:ok/.test(info)
          && /cluster_slots_assigned:16384/.test(info)
          && new RegExp(`cluster_known_nodes:${count}\\b`).test(info),
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`the test cluster did not form within ${FORMED_MS} ms:\n${infos.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    for (const c of clients) c.disconnect();
  }
}
