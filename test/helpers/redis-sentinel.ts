// A Redis Sentinel for tests, watching a primary under the name `mymaster`, on a free port in a temp
// dir (Sentinel rewrites its configuration file, so it gets one of its own). Never on port 6379.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, stopChild } from '../../src/store/redis-server.js';

export interface TestSentinel {
  port: number;
  name: string; // the primary's name
  stop(): Promise<void>;
}

const READY_MS = 30_000;

export async function startSentinel(primaryPort: number): Promise<TestSentinel> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-sentinel-'));
  let port: number;
  do port = await freePort();
  while (port === 6379);
  const name = 'mymaster';
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`, `sentinel down-after-milliseconds ${name} 1000`, ''].join('\n'));
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
      if (Array.isArray(addr) && Number(addr[1]) === primaryPort) break;
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
  return { port, name, stop };
}
