// The load generators: autocannon (in this process) and wrk (a child, when on PATH) run against a Target, each giving Measured.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { cpuSeconds } from './cpu.js';
import { checkSession, sessionBody } from '../../test/harness/random-sessions.js';
import { wrkScript, type RandomSession, type Target } from '../../test/harness/wrk-script.js';
import { settings } from './settings.js';

export type Tool = 'autocannon' | 'wrk';

const randomPathOf = (r: NonNullable<Target['randomPath']>) =>
  `${r.prefix}${r.ids ? r.ids[Math.floor(Math.random() * r.ids.length)] : 1 + Math.floor(Math.random() * r.max)}${r.suffix}`;

const randomSessionOf = (r: RandomSession) => sessionBody(r.ids, r.ratings, Math.random);

export interface Measured {
  rps: number;
  p50ms: number;
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
  const { randomPath, randomSession } = t;
  if (randomSession) checkSession(randomSession.ids, randomSession.ratings);
  // autocannon builds every request anew through setupRequest (Content-Length follows the body).
  const requests =
    randomPath || randomSession
      ? [
          {
            setupRequest: (req: { path: string; method: string; headers: Record<string, string>; body?: string }) => ({
              ...req,
              ...(randomPath ? { path: randomPathOf(randomPath) } : {}),
              ...(randomSession ? { body: randomSessionOf(randomSession) } : {}),
            }),
          },
        ]
      : undefined;
  const r = await autocannon({
    url: t.url,
    method: t.method,
    headers: t.headers,
    body: t.body,
    connections: settings.connections,
    pipelining,
    duration: seconds,
    ...(requests ? { requests } : {}),
  });
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const codes = r.statusCodeStats
    ? Object.entries(r.statusCodeStats)
        .map(([c, v]) => `${c}:${v.count}`)
        .join(' ')
    : '';
  return {
    rps: r.requests.average,
    p50ms: r.latency.p50,
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
  const p50 = out.match(/^\s*50%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const p99 = out.match(/^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const total = out.match(/(\d+) requests in/);
  const non2xx = out.match(/Non-2xx or 3xx responses:\s+(\d+)/);
  const sock = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  if (!rps || !total) throw new Error(`cannot read wrk output:\n${out}`);
  // A script wrk cannot load only prints an error and runs its default request instead.
  const scriptError = out.match(/^.*\.lua:\d+:.*$/m);
  if (scriptError) throw new Error(`wrk could not run its script ${script}: ${scriptError[0]}`);
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  // With a pipelining script wrk records one latency per batch and its percentiles can come out as 0.00us:
  // such a percentile is reported as missing rather than as zero.
  const percentile = (m: RegExpMatchArray | null) => (m && Number(m[1]) > 0 ? parseDuration(m[1]!, m[2]!) : NaN);
  return {
    rps: Number(rps[1]),
    p50ms: percentile(p50),
    p99ms: percentile(p99),
    requests: Number(total[1]),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    errors: sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0,
    unanswered: 0, // wrk counts a connection closed under it as a socket (read) error instead
    generatorCpuPct: lastCpu !== undefined ? (lastCpu / wall) * 100 : undefined,
    statusCodes: non2xx ? `non-2xx/3xx:${non2xx[1]}` : '',
  };
}

// wrk's version line when wrk is on PATH, else undefined.
export function wrkAvailable(): string | undefined {
  const r = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (r.error) return undefined;
  const line = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]?.trim();
  return line || 'wrk';
}
