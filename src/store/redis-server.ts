// Starts a private redis-server from the project's redis.conf: the embedded default of `npm start`
// and the Redis of every integration test.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REDIS_CONF = resolve(dirname(fileURLToPath(import.meta.url)), '../../../redis.conf');

export interface EmbeddedRedis {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export class RedisNotInstalled extends Error {
  override name = 'RedisNotInstalled';
  constructor() {
    super('redis-server is not installed: install it (Debian/Ubuntu: `apt-get install redis-server`) or set REDIS_URL to an existing Redis');
  }
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

export async function startRedisServer(dir: string, port?: number): Promise<EmbeddedRedis> {
  mkdirSync(dir, { recursive: true });
  const p = port ?? (await freePort());
  const child = spawn('redis-server', [REDIS_CONF, '--port', String(p), '--dir', resolve(dir)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const ready = new Promise<void>((res, rej) => {
    const onData = (d: Buffer) => {
      log += d.toString();
      if (log.includes('Ready to accept connections')) res();
      if (log.length > 65536) log = log.slice(-16384);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', (err: NodeJS.ErrnoException) => rej(err.code === 'ENOENT' ? new RedisNotInstalled() : err));
    child.on('exit', (code) => rej(new Error(`redis-server exited with code ${code} before it was ready:\n${log.slice(-2000)}`)));
  });
  // A parent that exits without stopping it (an uncaught error, process.exit) takes it along.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  try {
    await ready;
  } catch (err) {
    process.removeListener('exit', orphanGuard);
    throw err;
  }
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child);
      process.removeListener('exit', orphanGuard);
    },
  };
}

// SIGTERM, then SIGKILL when it has not exited after timeoutMs; resolves once it has exited.
export function stopChild(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      res();
    });
    child.kill('SIGTERM');
  });
}
