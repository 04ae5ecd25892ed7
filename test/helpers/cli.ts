// The built command line as an operator runs it: `node dist/src/cli.js …` as a child process, its
// output, its JSON log lines, and the processes it started (from /proc, Linux).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/store/redis-server.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from './stack.js';

export const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/cli.js');

export interface Proc {
  child: ChildProcess;
  out: () => string; // stdout and stderr so far, interleaved
  exited: Promise<number | null>;
}

// Only PATH, LOG_LEVEL=info and `env`: nothing of the test runner's environment leaks in. `input`,
// when given, is the standard input (else there is none).
export function run(args: string[], env: Record<string, string>, input?: string): Proc {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, out: () => out, exited };
}

// The pino lines of an output, parsed.
export function logLines(out: string): Record<string, any>[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const portOpen = (port: number) =>
  new Promise<boolean>((res) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      res(true);
    });
    s.on('error', () => res(false));
  });

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The live child processes of `pid`, with their command names (from /proc/<pid>/stat).
export function childrenOf(pid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === pid && state !== 'Z')
      out.push({ pid: Number(name), comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
  }
  return out;
}

// `recd serve --workers 2` on a private redis-server and a free port, with `env` added; stopped (and its
// Redis with it) when `t` ends. Resolves once a worker listens.
export async function serveTwoWorkers(
  t: { teardown(fn: () => unknown): void },
  env: Record<string, string> = {},
): Promise<{ proc: Proc; port: number }> {
  const { server, dir } = await startRedis();
  const port = await freePort();
  const proc = run(['serve', '--workers', '2'], {
    PORT: String(port),
    REDIS_URL: server.url,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    ...env,
  });
  t.teardown(async () => {
    proc.child.kill('SIGTERM');
    await proc.exited;
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await until('two workers listening', () => proc.out().includes('recd listening'));
  return { proc, port };
}
