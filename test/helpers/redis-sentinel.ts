// A Redis Sentinel for tests, watching a primary under the name `mymaster`, on a free port in a temp
// dir (Sentinel rewrites its configuration file, so it gets one of its own). Never on port 6379. Alone,
// it is the quorum (1): a primary silent for a second is down, and a replica it knows is promoted.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, REDIS_CONF, stopChild, type EmbeddedRedis } from '../../src/store/redis-server.js';

export interface TestSentinel {
  port: number;
  name: string; // the primary's name
  primaryPort(): Promise<number>; // the port of the primary it names now
  stop(): Promise<void>;
}

const READY_MS = 30_000;

// replicaPort: a replica of the primary, already connected to it; the Sentinel is ready once it knows
// that replica too (it learns replicas from the primary's INFO), so a failover has one to promote.
export async function startSentinel(primaryPort: number, replicaPort?: number): Promise<TestSentinel> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-sentinel-'));
  let port: number;
  do port = await freePort();
  while (port === 6379);
  const name = 'mymaster';
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 10000`,
      '',
    ].join('\n'),
  );
  const child = spawn('redis-server', [conf, '--sentinel'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it answers and names the primary it watches.
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  client.on('error', () => undefined);
  try {
    const deadline = Date.now() + READY_MS;
    for (;;) {
      const addr = await client.call('SENTINEL', 'get-master-addr-by-name', name).catch(() => null);
      if (
        Array.isArray(addr)
        && Number(addr[1]) === primaryPort
        && (replicaPort === undefined || (await knowsReplica(client, name, replicaPort)))
      )
        break;
      if (child.exitCode !== null) throw new Error(`redis-server --sentinel exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`the Sentinel did not watch the primary within ${READY_MS} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    client.disconnect();
  }
  const currentPrimary = async () => {
    const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      return Number(((await c.call('SENTINEL', 'get-master-addr-by-name', name)) as string[])[1]);
    } finally {
      c.disconnect();
    }
  };
  return { port, name, primaryPort: currentPrimary, stop };
}

// The Sentinel lists the replica on `port` and sees it up.
async function knowsReplica(client: Redis, name: string, port: number): Promise<boolean> {
  const replicas = (await client.call('SENTINEL', 'replicas', name).catch(() => [])) as string[][];
  return replicas.some((fields) => {
    const at = (f: string) => fields[fields.indexOf(f) + 1];
    return Number(at('port')) === port && !/s_down|disconnected/.test(at('flags') ?? '');
  });
}

// A redis-server for a Sentinel to manage (a primary, or a replica of the one on `replicaOf`), on a
// free port, from a copy of the project's redis.conf in a temp dir of its own: a failover runs CONFIG
// REWRITE on the servers the Sentinel reconfigures, which rewrites the file a server was started with
// (started as the other test servers are, the repository's redis.conf).
export async function startManagedRedis(replicaOf?: number): Promise<EmbeddedRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-sentinel-redis-'));
  const conf = join(dir, 'redis.conf');
  copyFileSync(REDIS_CONF, conf);
  let port: number;
  do port = await freePort();
  while (port === 6379);
  const child = spawn(
    'redis-server',
    [conf, '--port', String(port), '--dir', dir, ...(replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(replicaOf)])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((res, rej) => {
      let log = '';
      const onData = (d: Buffer) => {
        log += d.toString();
        if (log.includes('Ready to accept connections')) res();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('error', rej);
      child.on('exit', (code) => rej(new Error(`redis-server exited with code ${code} before it was ready:\n${log.slice(-2000)}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  child.stdout!.resume();
  child.stderr!.resume();
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, stop };
}
