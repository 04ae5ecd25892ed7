// Starts a private redis-server from the project's redis.conf: the embedded default of `npm start`
// and the Redis of every integration test. It runs under a guard process (redis-guard.ts) that stops
// it when recd goes, however recd goes, and keeps a second one off its data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REDIS_CONF = resolve(dirname(fileURLToPath(import.meta.url)), '../../../redis.conf');
const GUARD = fileURLToPath(new URL('./redis-guard.js', import.meta.url));

// The guard's exits and message (redis-guard.ts).
export const IN_USE_EXIT = 3;
export const NOT_INSTALLED_EXIT = 127;
export const IN_USE_MARK = 'recd-redis-guard: in use ';

// Running, not a zombie: a server left by a killed guard is reparented, and whoever reaps it may
// take its time.
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
// What a guard holding a data directory tells another that finds it taken.
export interface Holder {
  redisPid: number | undefined;
  owner: number; // the recd (or supervisor) that started it
  stopping: boolean; // its recd is gone or stopped it: the directory is free soon
}

export interface EmbeddedRedis {
  url: string;
  port: number;
  pid: number; // redis-server's own
  stop(): Promise<void>;
}

export class RedisNotInstalled extends Error {
  override name = 'RedisNotInstalled';
  constructor() {
    super(
      'redis-server is not installed: install it (Debian/Ubuntu: `apt-get install redis-server`) or set REDIS_URL to an existing Redis',
    );
  }
}

export class RedisDirInUse extends Error {
  override name = 'RedisDirInUse';
  constructor(dir: string, holder: Holder) {
    const server = `its redis-server (pid ${holder.redisPid ?? 'starting'})`;
    super(
      holder.stopping
        ? `the data directory ${dir} is in use: ${server}, started by a recd (pid ${holder.owner}) that is gone, is still stopping. Start again once it has stopped`
        : `the data directory ${dir} is in use: ${server} belongs to another recd (pid ${holder.owner}), still running. `
            + 'Stop that recd first, or give this one another RECD_DATA_DIR; processes that should share one Redis connect to it with REDIS_URL',
    );
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

// `settings`: more redis-server arguments after redis.conf's (the nodes of a test cluster).
export async function startRedisServer(dir: string, port?: number, settings: string[] = []): Promise<EmbeddedRedis> {
  mkdirSync(dir, { recursive: true });
  const p = port ?? (await freePort());
  // stdin: the pipe whose closing tells the guard that recd is gone.
  const guard = spawn(process.execPath, [GUARD, resolve(dir), REDIS_CONF, '--port', String(p), '--dir', resolve(dir), ...settings], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  const ready = new Promise<number>((res, rej) => {
    const onData = (d: Buffer) => {
      log += d.toString();
      // Redis's first line names its pid ("… pid=1234, just started").
      if (log.includes('Ready to accept connections')) res(Number(/pid=(\d+)/.exec(log)?.[1]));
      if (log.length > 65536) log = log.slice(-16384);
    };
    guard.stdout!.on('data', onData);
    guard.stderr!.on('data', onData);
    guard.on('error', rej);
    guard.on('exit', (code) => {
      const mark = log.indexOf(IN_USE_MARK);
      if (code === IN_USE_EXIT && mark >= 0)
        rej(new RedisDirInUse(resolve(dir), JSON.parse(log.slice(mark + IN_USE_MARK.length).split('\n')[0]!) as Holder));
      else if (code === NOT_INSTALLED_EXIT) rej(new RedisNotInstalled());
      else rej(new Error(`redis-server exited with code ${code} before it was ready:\n${log.slice(-2000)}`));
    });
  });
  let pid: number;
  try {
    pid = await ready;
  } catch (err) {
    await stopChild(guard);
    throw err;
  }
  guard.stdout!.resume();
  guard.stderr!.resume();
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    pid,
    // The guard stops redis-server (SIGTERM) and exits once it has.
    stop: () => stopChild(guard, 30_000),
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
