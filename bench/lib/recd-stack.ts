// startBenchStack: a recd child process on a private redis-server, with a database and a token (bulk-items, bulk-ratings, listing).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startRedisServer } from '../../src/store/redis-server.js';
import { MALLOC_ENV } from './servers.js';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/cli.js');
const EMAIL = 'root@bench.local';
const PASSWORD = 'Root-password-1';

export interface BenchStack {
  base: string; // http://127.0.0.1:<port>/v1
  token: string; // root, logged in on the database
  call(method: string, path: string, body?: unknown): Promise<any>;
  redisUrl: string; // the private redis-server, for INFO
  pid: number; // recd's process (a new one after restart)
  // A new recd process on the same port and Redis, with `env` added to its environment (e.g. to let in
  // a trainer kept out while data went in); tokens stay valid.
  restart(env: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export async function startBenchStack(): Promise<BenchStack> {
  const dir = mkdtempSync(join(os.tmpdir(), 'recd-bench-'));
  const redis = await startRedisServer(join(dir, 'redis'));
  const port = await freePort();
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the recd process.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const launch = (env: Record<string, string>) =>
    spawn(process.execPath, [...nodeArgs, CLI, 'serve'], {
      // One serving process (RECD_WORKERS=1): `pid` is the process that serves. No parameter search
      // unless RECD_SEARCH_SECONDS says so: the serving benches measure a model of the configured
      // factors (a search would choose them per data set, and retrain.ts checks them).
      env: {
        RECD_SEARCH_SECONDS: '0',
        ...process.env,
        ...env,
        ...MALLOC_ENV,
        RECD_WORKERS: '1',
        PORT: String(port),
        REDIS_URL: redis.url,
        RECD_ROOT_EMAIL: EMAIL,
        RECD_ROOT_PASSWORD: PASSWORD,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  let recd = launch({});
  const base = `http://127.0.0.1:${port}/v1`;
  let token = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const stopRecd = async () => {
    if (recd.exitCode !== null || recd.signalCode !== null) return;
    recd.kill('SIGTERM');
    await new Promise((r) => recd.once('exit', r));
  };
  const stop = async () => {
    await stopRecd();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const started = async () => {
    for (let i = 0; ; i++) {
      try {
        await call('GET', '');
        return;
      } catch {
        if (i > 100) throw new Error('recd did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const restart = async (env: Record<string, string>) => {
    await stopRecd();
    recd = launch(env);
    await started();
  };
  try {
    await started();
    token = (await call('POST', 'login/root/', { email: EMAIL, password: PASSWORD })).token;
    const db = (await call('POST', 'databases/', { name: 'bench', description: '', item_id_type: 'uint32', user_id_type: 'uint32' })).id;
    token = (await call('POST', 'login/individual/', { email: EMAIL, password: PASSWORD, db_id: db })).token;
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    base,
    get token() {
      return token;
    },
    call,
    redisUrl: redis.url,
    get pid() {
      return recd.pid!;
    },
    restart,
    stop,
  };
}
