// The process between recd and its embedded redis-server (started by redis-server.ts as
// `node redis-guard.js <dir> <redis-server arguments…>`), so that the server dies with recd however
// recd dies, and no two servers ever run on one data directory:
// - it stops redis-server (SIGTERM: Redis writes its append-only file and exits) when its stdin, a
//   pipe from recd, closes: recd stopped it, exited, or was killed, even with SIGKILL;
// - it holds the directory's lock for as long as redis-server runs: a Linux abstract socket named
//   after the directory, which the kernel releases when the guard dies (elsewhere, a socket file). A second guard for the
//   same directory waits while the holder is stopping its server (its recd is gone), and refuses
//   (exit IN_USE_EXIT, the holder's details on stderr) while that recd still runs;
// - a redis-server left serving the directory without a guard (the guard itself was killed with
//   SIGKILL) is found through its pidfile and stopped before a new one starts.
// It prints nothing after start-up but what redis-server writes: recd may be gone by then.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { IN_USE_EXIT, IN_USE_MARK, NOT_INSTALLED_EXIT, running, type Holder } from './redis-server.js';

// How long a new guard waits for a holder that is stopping its redis-server, and how long a guard
// gives redis-server to stop before SIGKILL (Redis needs a moment to write a large append-only file).
const HOLDER_STOPPING_WAIT_MS = 30_000;
const REDIS_STOP_MS = 20_000;
const RETRY_MS = 100;

// Elsewhere than on Linux (no abstract sockets) a socket file in the directory, which a killed
// guard leaves behind: one nobody answers on is removed.
const ABSTRACT = process.platform === 'linux';
const lockName = (dir: string) =>
  ABSTRACT ? `\0recd-redis:${createHash('sha256').update(realpathSync(dir)).digest('hex')}` : join(dir, 'redis-guard.sock');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function listen(server: Server, name: string): Promise<boolean> {
  return new Promise((res, rej) => {
    const onError = (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? res(false) : rej(err));
    server.once('error', onError);
    server.listen(name, () => {
      server.removeListener('error', onError);
      res(true);
    });
  });
}

function askHolder(name: string): Promise<Holder | undefined> {
  return new Promise((res) => {
    let got = '';
    const s = connect(name);
    s.on('data', (d) => (got += d));
    s.on('end', () => {
      try {
        res(JSON.parse(got) as Holder);
      } catch {
        res(undefined);
      }
    });
    s.on('error', () => res(undefined)); // gone meanwhile: try the lock again
  });
}

// A redis-server whose pidfile is in `dir` and whose working directory is `dir` (Redis chdirs to its
// --dir): one serving this directory. Its pid, or undefined.
function leftServer(dir: string, pidfile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidfile, 'utf8').trim());
    return pid > 0 && running(pid) && readlinkSync(`/proc/${pid}/cwd`) === realpathSync(dir) ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function stopLeftServer(pid: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // gone meanwhile
    }
  };
  signal('SIGTERM');
  const end = Date.now() + REDIS_STOP_MS;
  while (running(pid)) {
    if (Date.now() > end) signal('SIGKILL');
    await pause(RETRY_MS);
  }
}

async function main(): Promise<void> {
  process.title = 'recd-redis-guard';
  // recd may be gone: writes to its pipes must not kill the guard.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const [dir, ...redisArgs] = process.argv.slice(2);
  if (dir === undefined) throw new Error('usage: redis-guard <dir> <redis-server arguments…>');
  const owner = process.ppid;
  let redisPid: number | undefined;
  let stopping = false;
  const lock = createServer((c) => c.end(JSON.stringify({ redisPid, owner, stopping } satisfies Holder)));
  const name = lockName(dir);
  const waitUntil = Date.now() + HOLDER_STOPPING_WAIT_MS;
  while (!(await listen(lock, name))) {
    const holder = await askHolder(name);
    if (holder === undefined && !ABSTRACT) rmSync(name, { force: true });
    if (holder && (!holder.stopping || Date.now() > waitUntil)) {
      process.stderr.write(`${IN_USE_MARK}${JSON.stringify(holder)}\n`);
      process.exit(IN_USE_EXIT);
    }
    await pause(RETRY_MS);
  }
  const pidfile = join(dir, 'redis.pid');
  const left = leftServer(dir, pidfile);
  if (left !== undefined) await stopLeftServer(left);

  const redis = spawn('redis-server', [...redisArgs, '--pidfile', pidfile], { stdio: ['ignore', 'inherit', 'inherit'] });
  redisPid = redis.pid;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    redis.kill('SIGTERM');
    setTimeout(() => redis.kill('SIGKILL'), REDIS_STOP_MS).unref();
  };
  redis.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'ENOENT' ? NOT_INSTALLED_EXIT : 1));
  redis.on('exit', (code) => process.exit(code ?? 1));
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, stop);
}

main().catch((err: Error) => {
  process.stderr.write(`recd-redis-guard: ${err.message}\n`);
  process.exit(1);
});
