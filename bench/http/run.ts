// HTTP benchmark of the platform (issue 2): recd's GET /v1/ and authenticated requests against a bare
// uWebSockets.js hello-world measured in the same run.
//
//   npx tsc -p . && npm run bench:http        (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// A private redis-server (temp dir, free port), recd (`node dist/src/cli.js serve`) and the hello-world
// baseline each run as child processes, so the load generator never shares their event loop. The load
// comes from autocannon (in this process) and, when `wrk` is on PATH, from wrk (-t1) as well, since
// autocannon saturates about one core by itself. Scenarios are interleaved a,b,c,d,a,b,c,d,... and the
// median req/s over the rounds is reported; ratios are taken against the hello-world of the same run,
// same tool and same pipelining only. Progress goes to stderr, the markdown report to stdout.
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/store/redis-server.js';
import { BENCH_PROPERTIES, benchItem, propertyBody } from './catalogue-fixture.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const CLI = resolve(HERE, '../../src/cli.js');
export const HELLO = resolve(HERE, 'hello-uws.js');
export const HOST = '127.0.0.1';

export const ROOT_EMAIL = 'root@bench.local';
export const ROOT_PASSWORD = 'Root-password-1';
const BACKEND_EMAIL = 'backend@bench.local';
const BACKEND_PASSWORD = 'Backend-password-1';

// ---------------------------------------------------------------------------------------------------
// Settings

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

export const settings = {
  seconds: envInt('BENCH_SECONDS', 10, 1),
  rounds: envInt('BENCH_ROUNDS', 3, 1),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2, 0),
  connections: envInt('BENCH_CONNECTIONS', 64, 1),
  pipelinings: (process.env.BENCH_PIPELINING ?? '1,10').split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_PIPELINING must be a comma-separated list of integers ≥ 1, got ${JSON.stringify(process.env.BENCH_PIPELINING)}`);
    return n;
  }),
  wrk: process.env.BENCH_WRK !== '0', // BENCH_WRK=0 skips wrk even when it is installed
  // Before each run, wait (up to quietWaitSeconds) for a 1 s window in which processes other than ours use
  // less than quietMaxPct of one core: the machine may be shared. 0 disables the wait.
  quietMaxPct: envInt('BENCH_QUIET_MAX_PCT', 15, 0),
  quietWaitSeconds: envInt('BENCH_QUIET_WAIT_SECONDS', 120, 0),
};
// A run during which other processes used more than this share of one core is marked as disturbed.
export const DISTURBED_PCT = 25;
// Also: BENCH_SCENARIOS=a,c (a subset), BENCH_RECD_LOG_LEVEL (recd's LOG_LEVEL, default warn),
// BENCH_NODE_ARGS (node options for recd, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).

// ---------------------------------------------------------------------------------------------------
// Scenarios

type ScenarioId = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g';
export type Tool = 'autocannon' | 'wrk';

interface Scenario {
  id: ScenarioId;
  label: string;
  target: 'hello' | 'recd';
  method: 'GET' | 'POST';
  path: string;
  auth: boolean;
  body?: string; // JSON
}

const ALL_SCENARIOS: Scenario[] = [
  { id: 'a', label: 'bare uWS hello-world `GET /`', target: 'hello', method: 'GET', path: '/', auth: false },
  { id: 'b', label: 'recd `GET /v1/`', target: 'recd', method: 'GET', path: '/v1/', auth: false },
  { id: 'c', label: 'recd `POST /v1/login/jwt/` (Bearer, token only)', target: 'recd', method: 'POST', path: '/v1/login/jwt/', auth: true },
  { id: 'd', label: 'recd `GET /v1/databases/current/status/` (Bearer, 1 Redis read)', target: 'recd', method: 'GET', path: '/v1/databases/current/status/', auth: true },
  {
    id: 'f',
    label: 'recd `POST /v1/users/<id>/interactions/<id>/` (Bearer, JSON `{"interaction_type":"view"}`, one Redis script)',
    target: 'recd',
    method: 'POST',
    path: '/v1/users/00000000-0000-4000-8000-000000000077/interactions/4242/',
    auth: true,
    body: '{"interaction_type":"view"}',
  },
  { id: 'e', label: 'recd `GET /v1/items/4242/properties/` (Bearer, one of 10,000 items × 10 properties, in-memory view)', target: 'recd', method: 'GET', path: '/v1/items/4242/properties/', auth: true },
  {
    id: 'g',
    label: 'floor: bare uWS `POST /floor` answered after one trivial Redis script call per event-loop turn (no auth, no parsing, no data)',
    target: 'hello',
    method: 'POST',
    path: '/floor',
    auth: false,
    body: '{"interaction_type":"view"}',
  },
];

// BENCH_SCENARIOS=a,c runs a subset (for investigating one case); ratios need a.
const SCENARIOS = (() => {
  const raw = process.env.BENCH_SCENARIOS;
  if (raw === undefined || raw.trim() === '') return ALL_SCENARIOS;
  const ids = raw.split(',').map((s) => s.trim());
  const bad = ids.filter((id) => !ALL_SCENARIOS.some((sc) => sc.id === id));
  if (bad.length > 0) throw new Error(`BENCH_SCENARIOS: unknown scenario ${bad.join(', ')} (use a, b, c, d, e, f)`);
  return ALL_SCENARIOS.filter((sc) => ids.includes(sc.id));
})();

interface Sample {
  scenario: ScenarioId;
  tool: Tool;
  pipelining: number;
  round: number;
  rps: number;
  p99ms: number;
  requests: number;
  non2xx: number;
  errors: number; // socket errors, timeouts, resets, mismatches
  unanswered: number; // autocannon: requests written that never got a response, beyond those in flight at the end
  serverCpuPct: number | undefined;
  generatorCpuPct: number | undefined;
  machineCpuPct: number | undefined; // all processes, all cores (200 % = both cores of a 2-core machine)
  otherCpuPct: number | undefined; // machine minus the runner, wrk, both servers and redis-server
  quietWaitSeconds: number; // how long the run waited for the machine to be quiet
  statusCodes: string;
}

// ---------------------------------------------------------------------------------------------------
// Child processes

export interface Managed {
  name: string;
  child: ChildProcess;
  output: string; // tail of stdout + stderr
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  expectedExit: boolean;
}

export const children: Managed[] = [];

export function launch(name: string, args: string[], env: NodeJS.ProcessEnv): Managed {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const m: Managed = { name, child, output: '', exit: undefined, expectedExit: false };
  const keep = (d: Buffer) => {
    m.output += d.toString();
    if (m.output.length > 65536) m.output = m.output.slice(-16384);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code, signal) => {
    m.exit = { code, signal };
    if (!m.expectedExit) process.stderr.write(`\n!! ${name} (pid ${child.pid}) exited unexpectedly: code ${code}, signal ${signal}\n${m.output.slice(-4000)}\n`);
  });
  children.push(m);
  return m;
}

export function stop(m: Managed, timeoutMs = 10_000): Promise<void> {
  m.expectedExit = true;
  const c = m.child;
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const timer = setTimeout(() => c.kill('SIGKILL'), timeoutMs);
    c.once('exit', () => {
      clearTimeout(timer);
      res();
    });
    c.kill('SIGTERM');
  });
}

export function assertAlive(m: Managed): void {
  if (m.exit) throw new Error(`${m.name} is not running (exit code ${m.exit.code}, signal ${m.exit.signal}); its last output:\n${m.output.slice(-4000)}`);
}

export async function waitForLine(m: Managed, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = m.output.match(pattern);
    if (hit) return hit;
    assertAlive(m);
    if (Date.now() > deadline) throw new Error(`${m.name} did not become ready in ${timeoutMs} ms; output:\n${m.output.slice(-4000)}`);
    await sleep(50);
  }
}

export async function waitForHttp(m: Managed, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    assertAlive(m);
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${m.name} did not answer ${url} in ${timeoutMs} ms; output:\n${m.output.slice(-4000)}`);
    await sleep(100);
  }
}

const t_ = (sc: Scenario) => `${sc.method} ${sc.path}`;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// CPU time of a process from /proc (Linux), in seconds; undefined elsewhere.
const CLK_TCK = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime + stime
  } catch {
    return undefined;
  }
}

// Busy CPU time of the whole machine (all cores, seconds) from /proc/stat; undefined elsewhere.
export function machineBusySeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal ...
    return ((f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0) + (f[7] ?? 0)) / CLK_TCK;
  } catch {
    return undefined;
  }
}

export const loadAvg = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

// CPU seconds of our own processes (this runner, the servers, redis-server).
export function ownSeconds(pids: (number | undefined)[]): number | undefined {
  let total = process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
  for (const pid of pids) {
    const c = cpuSeconds(pid);
    if (c === undefined) return undefined;
    total += c;
  }
  return total;
}

// Waits for a 1 s window in which other processes use less than settings.quietMaxPct of one core.
// Returns the seconds waited, or -1 when it gave up.
export async function waitForQuiet(pids: (number | undefined)[]): Promise<number> {
  if (settings.quietMaxPct === 0 || settings.quietWaitSeconds === 0) return 0;
  const t0 = Date.now();
  for (;;) {
    const m0 = machineBusySeconds();
    const o0 = ownSeconds(pids);
    await sleep(1000);
    const m1 = machineBusySeconds();
    const o1 = ownSeconds(pids);
    if (m0 === undefined || m1 === undefined || o0 === undefined || o1 === undefined) return 0;
    const other = (m1 - m0 - (o1 - o0)) * 100;
    const waited = (Date.now() - t0) / 1000;
    if (other < settings.quietMaxPct) return Math.max(0, waited - 1);
    if (waited >= settings.quietWaitSeconds) return -1;
  }
}

// ---------------------------------------------------------------------------------------------------
// Set-up over HTTP

export async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; json: any; text: string }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, json, text };
}

export async function backendToken(base: string, idTypes = { item_id_type: 'uint32', user_id_type: 'uuid' }): Promise<{ token: string; dbId: string }> {
  const root = await call(base, 'POST', '/v1/login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  if (root.status !== 200) throw new Error(`root login failed: ${root.status} ${root.text}`);
  const rootToken = root.json.token as string;
  const db = await call(base, 'POST', '/v1/databases/', { name: 'bench', description: 'HTTP benchmark', ...idTypes }, rootToken);
  if (db.status !== 200) throw new Error(`database creation failed: ${db.status} ${db.text}`);
  const dbId = db.json.id as string;
  const acc = await call(base, 'POST', '/v1/accounts/individual/', { email: BACKEND_EMAIL, role: 'backend', password: BACKEND_PASSWORD }, rootToken);
  if (acc.status !== 200) throw new Error(`backend account creation failed: ${acc.status} ${acc.text}`);
  const login = await call(base, 'POST', '/v1/login/individual/', { email: BACKEND_EMAIL, password: BACKEND_PASSWORD, db_id: dbId });
  if (login.status !== 200) throw new Error(`backend login failed: ${login.status} ${login.text}`);
  return { token: login.json.token as string, dbId };
}

// Scenario e: 10,000 items with 10 properties each; the first read starts the process's view build.
export async function seedItems(base: string, token: string): Promise<void> {
  for (const prop of BENCH_PROPERTIES) {
    const r = await call(base, 'POST', '/v1/items-properties/', propertyBody(prop), token);
    if (r.status !== 204) throw new Error(`property creation failed: ${r.status} ${r.text}`);
  }
  for (let start = 1; start <= 10_000; start += 500) {
    const items = Array.from({ length: 500 }, (_, k) => benchItem(start + k, start + k));
    const r = await call(base, 'PUT', '/v1/items-bulk/properties/', { items }, token);
    if (r.status !== 200) throw new Error(`item upload failed: ${r.status} ${r.text}`);
  }
  await call(base, 'GET', '/v1/items/4242/properties/', undefined, token);
  await sleep(1000); // the view of 10,000 items is built well within this
}

// ---------------------------------------------------------------------------------------------------
// Load generators

export interface Target {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  // Each request's path is `${prefix}${a random integer in [1, max]}${suffix}` instead of the url's
  // (a different entity per request, so per-entity caches do not flatter the result).
  randomPath?: { prefix: string; max: number; suffix: string };
}

const randomPathOf = (r: NonNullable<Target['randomPath']>) => `${r.prefix}${1 + Math.floor(Math.random() * r.max)}${r.suffix}`;

export interface Measured {
  rps: number;
  p99ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  unanswered: number;
  generatorCpuPct: number | undefined;
  statusCodes: string;
}

export async function runAutocannon(t: Target, pipelining: number, seconds: number): Promise<Measured> {
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  const random = t.randomPath;
  const requests = random ? [{ setupRequest: (req: { path: string; method: string; headers: Record<string, string>; body?: string }) => ({ ...req, path: randomPathOf(random) }) }] : undefined;
  const r = await autocannon({ url: t.url, method: t.method, headers: t.headers, body: t.body, connections: settings.connections, pipelining, duration: seconds, ...(requests ? { requests } : {}) });
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const codes = r.statusCodeStats ? Object.entries(r.statusCodeStats).map(([c, v]) => `${c}:${v.count}`).join(' ') : '';
  return {
    rps: r.requests.average,
    p99ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts + r.resets + r.mismatches,
    // autocannon reconnects silently when the server closes a connection, dropping what was in flight on it;
    // at most connections × pipelining requests are legitimately still in flight when the run stops.
    unanswered: Math.max(0, r.requests.sent - r.requests.total - settings.connections * pipelining),
    generatorCpuPct: ((cpu.user + cpu.system) / 1e6 / wall) * 100,
    statusCodes: codes,
  };
}

function luaString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

// A wrk script: method and headers; with pipelining > 1, `pipelining` requests written back to back.
function wrkScript(dir: string, t: Target, pipelining: number): string {
  const lines = [`wrk.method = ${luaString(t.method)}`];
  for (const [k, v] of Object.entries(t.headers)) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  if (t.body !== undefined) lines.push(`wrk.body = ${luaString(t.body)}`);
  if (t.randomPath) {
    if (pipelining > 1) throw new Error('randomPath with pipelining is not supported');
    const r = t.randomPath;
    lines.push(`request = function() return wrk.format(nil, ${luaString(r.prefix)} .. math.random(1, ${r.max}) .. ${luaString(r.suffix)}) end`);
  } else if (pipelining > 1) {
    lines.push(
      'local req',
      'init = function(args)',
      '  local r = {}',
      `  for i = 1, ${pipelining} do r[i] = wrk.format() end`,
      '  req = table.concat(r)',
      'end',
      'request = function() return req end',
    );
  }
  const file = join(dir, `wrk-${t.method}-${Buffer.from(t.url).toString('hex').slice(-24)}-${pipelining}.lua`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function parseDuration(value: string, unit: string): number {
  const v = Number(value);
  switch (unit) {
    case 'us':
      return v / 1000;
    case 'ms':
      return v;
    case 's':
      return v * 1000;
    case 'm':
      return v * 60_000;
    default:
      return NaN;
  }
}

export async function runWrk(dir: string, t: Target, pipelining: number, seconds: number): Promise<Measured> {
  const script = wrkScript(dir, t, pipelining);
  const args = ['-t1', `-c${settings.connections}`, `-d${seconds}s`, '--latency', '-s', script, t.url];
  let lastCpu: number | undefined;
  const wall0 = process.hrtime.bigint();
  const out = await new Promise<string>((res, rej) => {
    const c = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // wrk's own CPU time, sampled until it exits (the last ~200 ms are missed).
    const poll = setInterval(() => {
      lastCpu = cpuSeconds(c.pid) ?? lastCpu;
    }, 200);
    c.on('exit', () => clearInterval(poll));
    let text = '';
    c.stdout.on('data', (d: Buffer) => (text += d.toString()));
    c.stderr.on('data', (d: Buffer) => (text += d.toString()));
    c.on('error', rej);
    c.on('exit', (code) => (code === 0 ? res(text) : rej(new Error(`wrk ${args.join(' ')} exited with ${code}:\n${text}`))));
  });
  const rps = out.match(/Requests\/sec:\s+([\d.]+)/);
  const p99 = out.match(/^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const total = out.match(/(\d+) requests in/);
  const non2xx = out.match(/Non-2xx or 3xx responses:\s+(\d+)/);
  const sock = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  if (!rps || !total) throw new Error(`cannot read wrk output:\n${out}`);
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  // With a pipelining script wrk records one latency per batch and its percentiles can come out as 0.00us:
  // such a p99 is reported as missing rather than as zero.
  const p99ms = p99 && Number(p99[1]) > 0 ? parseDuration(p99[1]!, p99[2]!) : NaN;
  return {
    rps: Number(rps[1]),
    p99ms,
    requests: Number(total[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0,
    unanswered: 0, // wrk counts a connection closed under it as a socket (read) error instead
    generatorCpuPct: lastCpu !== undefined ? (lastCpu / wall) * 100 : undefined,
    statusCodes: non2xx ? `non-2xx/3xx:${non2xx[1]}` : '',
  };
}

// The commit the tree is at, and whether src/ differs from it (dist/ is built from the working tree).
export function gitState(): string {
  const cwd = resolve(HERE, '../../..');
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' });
  if (head.status !== 0) return 'not a git checkout';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd, encoding: 'utf8' });
  const changed = (dirty.stdout ?? '').split('\n').filter((l) => l.trim() !== '').length;
  return `git ${head.stdout.trim()}${changed > 0 ? ` with ${changed} uncommitted change(s) under src/` : ', src/ clean'} at start (run from dist/, built from the working tree)`;
}

export function wrkAvailable(): string | undefined {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (r.error) return undefined;
  const line = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]?.trim();
  return line || 'wrk';
}

// ---------------------------------------------------------------------------------------------------
// Report

export function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
export const fmt = (n: number | undefined, digits: number) => (n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '—');

export function versionOf(pkg: string): string {
  try {
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve(pkg));
    for (const d of [dir, resolve(dir, '..')]) {
      try {
        const p = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (p.version) return `${p.name ?? pkg}@${p.version}`;
      } catch {
        // try the parent
      }
    }
  } catch {
    // not resolvable
  }
  return `${pkg}@?`;
}

function report(samples: Sample[], tools: Tool[], meta: Record<string, string>, incomplete?: string): string {
  const out: string[] = [];
  if (incomplete) out.push(`**INCOMPLETE RUN: ${incomplete}**`, '');
  out.push('### Machine and settings', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push('');
  out.push(
    '| Scenario | Tool | Pipelining | Median req/s | × hello-world (same run) | p99 ms (median) | CPU % server / load gen / other (median) | Rounds req/s | non-2xx / errors / unanswered |',
    '|---|---|---:|---:|---:|---:|---|---|---|',
  );
  const flagged: string[] = [];
  for (const tool of tools) {
    for (const p of settings.pipelinings) {
      const of = (id: ScenarioId) => samples.filter((s) => s.tool === tool && s.pipelining === p && s.scenario === id).sort((x, y) => x.round - y.round);
      const base = median(of('a').map((s) => s.rps));
      for (const sc of SCENARIOS) {
        const ss = of(sc.id);
        if (ss.length === 0) continue;
        const rps = median(ss.map((s) => s.rps));
        const non2xx = ss.reduce((n, s) => n + s.non2xx, 0);
        const errors = ss.reduce((n, s) => n + s.errors, 0);
        const unanswered = ss.reduce((n, s) => n + s.unanswered, 0);
        const bad = non2xx > 0 || errors > 0 || unanswered > 0;
        if (bad) {
          const codes = ss
            .map((s) => `round ${s.round}: ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered${s.statusCodes ? ` (status ${s.statusCodes})` : ''}`)
            .join('; ');
          flagged.push(`- **${sc.id}** ${sc.label}, ${tool}, pipelining ${p}: ${codes}`);
        }
        out.push(
          `| ${sc.id}. ${sc.label} | ${tool} | ${p} | ${fmtInt(rps)} | ${sc.id === 'a' ? '1.00' : fmt(rps / base, 2)} | ${fmt(median(ss.map((s) => s.p99ms)), 2)} | ${fmt(median(ss.map((s) => s.serverCpuPct ?? NaN)), 0)} / ${fmt(median(ss.map((s) => s.generatorCpuPct ?? NaN)), 0)} / ${fmt(
            median(ss.map((s) => s.otherCpuPct ?? NaN)),
            0,
          )} | ${ss.map((s) => fmtInt(s.rps)).join(', ')} | ${bad ? `⚠ ${non2xx} / ${errors} / ${unanswered}` : '0 / 0 / 0'} |`,
        );
      }
    }
  }
  out.push('');
  const disturbed = samples.filter((s) => (s.otherCpuPct ?? 0) > DISTURBED_PCT);
  out.push(
    disturbed.length === 0
      ? `No run was disturbed: other processes used at most ${DISTURBED_PCT} % of one core during every run.`
      : `**${disturbed.length} of ${samples.length} runs were disturbed** (other processes above ${DISTURBED_PCT} % of one core): ${disturbed
          .map((s) => `${s.scenario}/${s.tool}/p${s.pipelining}/round ${s.round} (${fmt(s.otherCpuPct, 0)} %)`)
          .join(', ')}.`,
    '',
  );
  if (flagged.length > 0) out.push('**Flagged: scenarios with non-2xx responses, errors or unanswered requests** (their req/s is not a valid measurement)', '', ...flagged, '');
  else out.push('No scenario had non-2xx responses, errors or unanswered requests.', '');
  out.push(
    '_errors_: autocannon errors + timeouts + resets + mismatches, or wrk socket errors (connect, read, write, timeout). _unanswered_: requests autocannon wrote that never got a response, beyond the connections × pipelining still in flight when a run stops (autocannon reconnects silently when the server closes a connection). _CPU %_: CPU time over wall time during the run, 100 % = one core: the server process, the load generator (autocannon: this whole process; wrk: sampled every 200 ms), and _other_: every other process on the machine (the machine busy time minus this runner, wrk, both servers and redis-server). _p99_: wrk with pipelining measures one latency per batch of requests and sometimes prints 0.00us percentiles; those are shown as —.',
    '',
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Main

// The frame of a benchmark program: a temp dir with a private redis-server (never 6379), every
// child stopped on exit or on a signal, the exit code set by how the body ended.
export async function benchProgram(name: string, body: (redis: EmbeddedRedis, dir: string) => Promise<number>): Promise<never> {
  const dir = mkdtempSync(join(os.tmpdir(), `recd-bench-${name}-`));
  let redis: EmbeddedRedis | undefined;
  let exitCode = 0;
  const cleanup = async () => {
    for (const m of children.slice().reverse()) await stop(m);
    if (redis) await redis.stop();
    redis = undefined;
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (sig: NodeJS.Signals) => {
    process.stderr.write(`\n${sig}: stopping children\n`);
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    redis = await startRedisServer(join(dir, 'redis'));
    if (redis.port === 6379) throw new Error('refusing to use port 6379');
    process.stderr.write(`redis-server on ${redis.url} (pid ${redis.pid})\n`);
    exitCode = await body(redis, dir);
  } catch (err) {
    exitCode = 1;
    process.stderr.write(`bench ${name} failed: ${(err as Error).stack ?? String(err)}\n`);
    for (const m of children) if (m.exit && !m.expectedExit) process.stderr.write(`${m.name} last output:\n${m.output.slice(-4000)}\n`);
  } finally {
    await cleanup();
  }
  process.exit(exitCode);
}

async function main(): Promise<void> {
  await benchProgram('http', async (redis, dir) => {
    let failed = false;
    const treeAtStart = gitState();
    const wrkVersion = settings.wrk ? wrkAvailable() : undefined;
    const tools: Tool[] = wrkVersion ? ['autocannon', 'wrk'] : ['autocannon'];


    const recdPort = await freePort();
    const recd = launch('recd', [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), CLI, 'serve'], {
      ...process.env,
      PORT: String(recdPort),
      HOST,
      REDIS_URL: redis.url,
      RECD_ROOT_EMAIL: ROOT_EMAIL,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
      LOG_LEVEL: process.env.BENCH_RECD_LOG_LEVEL || 'warn', // info shows why it stopped, should it stop
    });
    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env, BENCH_FLOOR_REDIS_URL: redis.url });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const recdBase = `http://${HOST}:${recdPort}`;
    await waitForHttp(recd, `${recdBase}/v1/`, 20_000);
    process.stderr.write(`recd on ${recdBase} (pid ${recd.child.pid}), hello-world on http://${HOST}:${helloPort} (pid ${hello.child.pid})\n`);

    const { token, dbId } = await backendToken(recdBase);
    process.stderr.write(`backend token obtained for database ${dbId}\n`);
    if (SCENARIOS.some((sc) => sc.id === 'e')) await seedItems(recdBase, token);

    const targets = new Map<ScenarioId, Target>();
    for (const sc of SCENARIOS) {
      const base = sc.target === 'hello' ? `http://${HOST}:${helloPort}` : recdBase;
      const headers: Record<string, string> = {};
      if (sc.auth) headers.authorization = `Bearer ${token}`;
      if (sc.body !== undefined) headers['content-type'] = 'application/json';
      else if (sc.method === 'POST') headers['content-length'] = '0';
      targets.set(sc.id, { url: base + sc.path, method: sc.method, headers, ...(sc.body !== undefined ? { body: sc.body } : {}) });
    }
    const serverOf = (sc: Scenario) => (sc.target === 'hello' ? hello : recd);
    const ownPids = [recd.child.pid, hello.child.pid, redis.pid];

    // Each scenario answers 200 once before any load.
    for (const sc of SCENARIOS) {
      const t = targets.get(sc.id)!;
      const { 'content-length': _len, ...headers } = t.headers;
      const r = await fetch(t.url, { method: t.method, headers, body: t.body });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`scenario ${sc.id} (${t.method} ${t.url}) answers ${r.status} before any load: ${text}`);
      process.stderr.write(`  ${sc.id}: ${t.method} ${t.url} -> ${r.status} ${text.slice(0, 160)}\n`);
    }

    if (settings.warmupSeconds > 0) {
      process.stderr.write(`warm-up: ${settings.warmupSeconds} s per scenario (autocannon, pipelining 1, not recorded)\n`);
      for (const sc of SCENARIOS) {
        const w = await runAutocannon(targets.get(sc.id)!, 1, settings.warmupSeconds);
        if (w.non2xx > 0 || w.errors > 0 || w.unanswered > 0) process.stderr.write(`  warm-up ${sc.id}: ${w.non2xx} non-2xx, ${w.errors} errors, ${w.unanswered} unanswered (${w.statusCodes})\n`);
      }
    }

    const samples: Sample[] = [];
    const startedAt = new Date();
    const loadAtStart = loadAvg();
    let incomplete: string | undefined;
    let current = '';
    try {
      for (let round = 1; round <= settings.rounds; round++) {
        for (const p of settings.pipelinings) {
          for (const tool of tools) {
            for (const sc of SCENARIOS) {
              current = `round ${round}, pipelining ${p}, ${tool}, scenario ${sc.id} (${t_(sc)})`;
              assertAlive(recd);
              assertAlive(hello);
              const server = serverOf(sc);
              const t = targets.get(sc.id)!;
              const quietWaitSeconds = await waitForQuiet(ownPids);
              if (quietWaitSeconds < 0 || quietWaitSeconds >= 1) process.stderr.write(quietWaitSeconds < 0 ? `  (machine still busy after ${settings.quietWaitSeconds} s: measuring anyway)\n` : `  (waited ${quietWaitSeconds.toFixed(0)} s for the machine to be quiet)\n`);
              const cpu0 = cpuSeconds(server.child.pid);
              const busy0 = machineBusySeconds();
              const own0 = ownSeconds(ownPids);
              const wall0 = process.hrtime.bigint();
              const m = tool === 'autocannon' ? await runAutocannon(t, p, settings.seconds) : await runWrk(dir, t, p, settings.seconds);
              const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
              const cpu1 = cpuSeconds(server.child.pid);
              const busy1 = machineBusySeconds();
              const own1 = ownSeconds(ownPids);
              const serverCpuPct = cpu0 !== undefined && cpu1 !== undefined ? ((cpu1 - cpu0) / wall) * 100 : undefined;
              const machineCpuPct = busy0 !== undefined && busy1 !== undefined ? ((busy1 - busy0) / wall) * 100 : undefined;
              // wrk's CPU is not among ownPids: take its sampled share out as well.
              const wrkSeconds = tool === 'wrk' && m.generatorCpuPct !== undefined ? (m.generatorCpuPct / 100) * wall : 0;
              const otherCpuPct =
                busy0 !== undefined && busy1 !== undefined && own0 !== undefined && own1 !== undefined
                  ? Math.max(0, ((busy1 - busy0 - (own1 - own0) - wrkSeconds) / wall) * 100)
                  : undefined;
              samples.push({ scenario: sc.id, tool, pipelining: p, round, ...m, serverCpuPct, machineCpuPct, otherCpuPct, quietWaitSeconds });
              const warn = m.non2xx > 0 || m.errors > 0 || m.unanswered > 0 ? `  ⚠ ${m.non2xx} non-2xx, ${m.errors} errors, ${m.unanswered} unanswered ${m.statusCodes}` : '';
              process.stderr.write(
                `round ${round}/${settings.rounds} p=${p} ${tool.padEnd(10)} ${sc.id}: ${fmtInt(m.rps).padStart(8)} req/s  p99 ${fmt(m.p99ms, 2)} ms  CPU server ${fmt(serverCpuPct, 0)} % gen ${fmt(m.generatorCpuPct, 0)} % machine ${fmt(machineCpuPct, 0)} % other ${fmt(otherCpuPct, 0)} %${warn}\n`,
              );
              // A server that died during the run: the run is recorded above (with its errors), then measuring stops.
              assertAlive(server);
            }
          }
        }
      }
    } catch (err) {
      failed = true;
      const msg = (err as Error).message;
      incomplete = `stopped during ${current}: ${msg.split('\n')[0]}`;
      process.stderr.write(`bench:http: stopped during ${current}: ${msg}\n`);
    }

    const cpus = os.cpus();
    const meta: Record<string, string> = {
      Machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
      Node: process.version,
      'recd under test': treeAtStart,
      Date: startedAt.toISOString(),
      'Load average (1/5/15 min) at start / end of measuring': `${loadAtStart} / ${loadAvg()}`,
      Settings: `${settings.connections} connections, pipelining ${settings.pipelinings.join(' and ')}, ${settings.seconds} s per run, ${settings.rounds} interleaved rounds (median reported), ${settings.warmupSeconds} s warm-up per scenario; before each run, wait up to ${settings.quietWaitSeconds} s for other processes to use < ${settings.quietMaxPct} % of one core`,
      'Load generators': `${versionOf('autocannon')} (in the runner process)${wrkVersion ? `; ${wrkVersion} (-t1 -c${settings.connections}, Lua script for method, headers and pipelining)` : settings.wrk ? '; wrk not found on PATH: skipped' : '; wrk skipped (BENCH_WRK=0)'}`,
      Servers: `recd (\`node dist/src/cli.js serve\`, LOG_LEVEL=${process.env.BENCH_RECD_LOG_LEVEL || 'warn'}) and the hello-world (\`node dist/bench/http/hello-uws.js\`, ${versionOf('uWebSockets.js')}) as separate processes; private redis-server on port ${redis.port}`,
    };
    process.stdout.write(report(samples, tools, meta, incomplete) + '\n');
    return failed ? 1 : 0;
  });
}

// Run as a program (not when bench/http/reco.ts imports the helpers above).
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
