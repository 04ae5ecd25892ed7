// runRecoBench: the frame of the recommendation benchmarks (reco.ts, reco-large.ts, reco-scenario.ts), their runs and their report.
//
// recd and a bare uWebSockets.js hello-world as child processes on a private redis-server (or the Redis
// RecoBench.redis starts, e.g. a cluster; the set-up may restart recd with more environment), a data set
// uploaded over HTTP and trained on, each scenario answered once and checked, then measured against the
// hello-world in the same run (the machinery of bench/lib: autocannon and wrk, CPU and disturbance
// checks, waiting for a quiet machine before each run).
//
// Two builds in one run: BENCH_RECD_CLI_B=/path/to/other/checkout/dist/src/cli.js starts that build (B)
// beside this checkout's (A), each on a private redis-server of its own, and gives B the same set-up
// (the same data over HTTP, trained the same way). Each round then runs every recd scenario on A and
// on B back to back (the hello-world once, shared); the report has a row per build, tagged (A) and
// (B), and a table of A against B: median req/s, p50 and p99 of each, each × hello-world, and B ÷ A.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort, startRedisServer, type EmbeddedRedis } from '../../src/store/redis-server.js';
import { backendToken } from './api.js';
import { cpuSeconds, loadAvg } from './cpu.js';
import { runAutocannon, wrkAvailable, type Tool } from './load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { measureLoad, quietBeforeRun, type Loaded } from './measure.js';
import { assertAlive, launch, sleep, stop, waitForHttp, waitForLine, type Managed } from './processes.js';
import { atCleanup, benchProgram } from './program.js';
import { fmt, fmtInt, gitState, median, versionOf } from './report.js';
import type { Trained } from './retrain.js';
import { rssLine, rssOf, type Rss } from './rss.js';
import { CLI, HELLO, HOST, launchRecd, recdLogLevel, recdNodeArgs, recdWorkers } from './servers.js';
import { loopDelayLaunch, loopDelayRead, loopDelayStart, type LoopDelay } from './loop-delay.js';
import { DISTURBED_PCT, settings } from './settings.js';

export interface Scenario {
  id: string; // 'h' is the hello-world every ratio is taken against
  label: string;
  target: 'hello' | 'recd';
  method: 'GET' | 'POST';
  path: string;
  body?: string; // with randomSession: the body of the check before any load
  randomPath?: Target['randomPath'];
  randomSession?: Target['randomSession'];
  pipelined?: boolean; // also run at pipelining 10 (autocannon)
  goal?: { ratio?: number; p99ms?: number; of?: string }; // ratio against scenario `of` (default h) of the same run
}

// What a set-up may do with the recd it sets up (bench/scale: keep the trainer out of an upload, then let it in).
export interface SetupContext {
  redisUrl: string; // the Redis recd runs on (REDIS_URL)
  pid(): number; // recd's process (a new one after restart)
  // A new recd process on the same port and Redis, with `env` added to its environment from now on
  // (BENCH_FRESH_PROCESSES restarts keep it); tokens stay valid.
  restart(env: Record<string, string>): Promise<void>;
}

// A Redis other than the private redis-server for recd to run on (e.g. a cluster), its processes
// counted as the runner's own; the caller stops it (atCleanup).
export interface ExternalRedis {
  url: string; // REDIS_URL
  pids: number[];
  label: string; // what the report's Servers line says of it
}

export interface RecoBench<S extends { trained: Trained }> {
  name: string;
  factors: string; // RECD_ALS_FACTORS
  env?: Record<string, string>; // more of recd's environment
  redis?(dir: string): Promise<ExternalRedis>; // default: the private redis-server
  scenarios: Scenario[];
  setup(base: string, token: string, ctx: SetupContext): Promise<S>; // uploads and trains (retrain())
  check(sc: Scenario, json: any, setup: S): string; // what one answer shows, checked against the data
  meta(setup: S): Record<string, string>; // the data set's lines of the report
  extra?(base: string, token: string, setup: S, redis: EmbeddedRedis): Promise<string[]>; // more report lines (`redis`: the private redis-server, recd's unless RecoBench.redis)
}

interface Run {
  scenario: Scenario;
  tool: Tool;
  pipelining: number;
}

// A is this checkout's build (CLI); B the one BENCH_RECD_CLI_B names, if any.
type Side = 'A' | 'B';

interface Sample extends Loaded {
  run: Run;
  round: number;
  side: Side; // the hello-world's samples are A's
  drainSeconds: number; // how long recd took to finish what the previous run left in flight
  loopP99ms: number; // recd's event-loop delay, p99 over the run (NaN for the hello-world)
  loop: LoopDelay | undefined; // the whole reading, with the garbage collections (undefined for the hello-world)
}

function report(
  samples: Sample[],
  runs: Run[],
  sides: Side[],
  meta: Record<string, string>,
  checks: string[],
  extra: string[],
  incomplete?: string,
): string {
  const out: string[] = [];
  if (incomplete) out.push(`**INCOMPLETE RUN: ${incomplete}**`, '');
  out.push('### Machine and settings', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push('', '### Answers before any load', '', ...checks.map((c) => `- ${c}`), '');
  if (extra.length > 0) out.push(...extra, '');
  out.push(
    '| Scenario | Tool | Pipelining | Median req/s | × hello-world (same run) | Target | p50 ms (median) | p99 ms (median) | event-loop delay p99 ms, how late a 1 ms timer fired (median); in brackets, less the time recd waited for a core | scavenges per s / mean ms (median) | CPU % server / Redis / load gen / other (median) | Rounds req/s | non-2xx / errors / unanswered |',
    '|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|---|',
  );
  const flagged: string[] = [];
  // With two builds (BENCH_RECD_CLI_B) each recd scenario has a row per build, its id tagged (A) or (B);
  // the hello-world is measured once per round for both.
  const sidesOf = (sc: Scenario): Side[] => (sc.target === 'recd' ? sides : ['A']);
  const tag = (sc: Scenario, side: Side) => (sides.length > 1 && sc.target === 'recd' ? ` (${side})` : '');
  const same = (s: Sample, id: string, side: Side, r: Run) =>
    s.run.scenario.id === id && s.side === side && s.run.tool === r.tool && s.run.pipelining === r.pipelining;
  const of = (r: Run, side: Side) => samples.filter((s) => same(s, r.scenario.id, side, r)).sort((x, y) => x.round - y.round);
  const rpsOf = (id: string, side: Side, r: Run) => median(samples.filter((s) => same(s, id, side, r)).map((s) => s.rps));
  for (const r of runs) {
    for (const side of sidesOf(r.scenario)) {
      const ss = of(r, side);
      if (ss.length === 0) continue;
      const id = `${r.scenario.id}${tag(r.scenario, side)}`;
      const base = rpsOf('h', 'A', r);
      const rps = median(ss.map((s) => s.rps));
      const ratio = rps / base;
      const against = r.scenario.goal?.of ?? 'h';
      const goalRatio = against === 'h' ? ratio : rps / rpsOf(against, side, r);
      const p50 = median(ss.map((s) => s.p50ms));
      const p99 = median(ss.map((s) => s.p99ms));
      const non2xx = ss.reduce((n, s) => n + s.non2xx, 0);
      const errors = ss.reduce((n, s) => n + s.errors, 0);
      const unanswered = ss.reduce((n, s) => n + s.unanswered, 0);
      const bad = non2xx > 0 || errors > 0 || unanswered > 0;
      if (bad) {
        flagged.push(
          `- **${id}** ${r.tool}, pipelining ${r.pipelining}: ${ss
            .map(
              (s) =>
                `round ${s.round}: ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered${s.statusCodes ? ` (status ${s.statusCodes})` : ''}`,
            )
            .join('; ')}`,
        );
      }
      const g = r.scenario.goal;
      const goal = !g
        ? ''
        : `${[g.ratio !== undefined ? `≥ ${g.ratio}×${against === 'h' ? '' : ` ${against} (${fmt(goalRatio, 2)}×)`}` : '', g.p99ms !== undefined ? `p99 ≤ ${g.p99ms} ms` : ''].filter(Boolean).join(', ')}: ${
            !bad && (g.ratio === undefined || goalRatio >= g.ratio) && (g.p99ms === undefined || (Number.isFinite(p99) && p99 <= g.p99ms))
              ? 'met'
              : '**missed**'
          }`;
      out.push(
        `| ${id}. ${r.scenario.label} | ${r.tool} | ${r.pipelining} | ${fmtInt(rps)} | ${r.scenario.id === 'h' ? '1.00' : fmt(ratio, 2)} | ${goal} | ${fmt(p50, 2)} | ${fmt(p99, 2)} | ${loopCell(ss)} | ${gcCell(ss)} | ${fmt(median(ss.map((s) => s.serverCpuPct ?? NaN)), 0)} / ${r.scenario.target === 'hello' ? '—' : fmt(median(ss.map((s) => s.redisCpuPct ?? NaN)), 0)} / ${fmt(
          median(ss.map((s) => s.generatorCpuPct ?? NaN)),
          0,
        )} / ${fmt(median(ss.map((s) => s.otherCpuPct ?? NaN)), 0)} | ${ss.map((s) => fmtInt(s.rps)).join(', ')} | ${bad ? `⚠ ${non2xx} / ${errors} / ${unanswered}` : '0 / 0 / 0'} |`,
      );
    }
  }
  out.push('');
  if (sides.length > 1) {
    out.push(
      '### Build A against build B (same data, same run)',
      '',
      '| Scenario | Tool | Pipelining | A req/s | B req/s | B ÷ A req/s | B ÷ A within each round: median (range) | A × hello-world | B × hello-world | p50 ms A | p50 ms B | p99 ms A | p99 ms B | B ÷ A p99 | Rounds A req/s | Rounds B req/s |',
      '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    );
    for (const r of runs.filter((r) => r.scenario.target === 'recd')) {
      const [a, b] = [of(r, 'A'), of(r, 'B')];
      if (a.length === 0 && b.length === 0) continue;
      const base = rpsOf('h', 'A', r);
      const [ra, rb] = [median(a.map((s) => s.rps)), median(b.map((s) => s.rps))];
      const [ma, mb] = [median(a.map((s) => s.p50ms)), median(b.map((s) => s.p50ms))];
      const [pa, pb] = [median(a.map((s) => s.p99ms)), median(b.map((s) => s.p99ms))];
      const flag = [...a, ...b].some((s) => s.non2xx > 0 || s.errors > 0 || s.unanswered > 0) ? ' ⚠ flagged' : '';
      // Paired: each round's B against that round's A (with BENCH_FRESH_PROCESSES, each a new pair of processes).
      const paired = a.flatMap((x) => b.filter((y) => y.round === x.round).map((y) => y.rps / x.rps));
      const pairedCell =
        paired.length === 0 ? '–' : `${fmt(median(paired), 3)} (${fmt(Math.min(...paired), 2)}–${fmt(Math.max(...paired), 2)})`;
      out.push(
        `| ${r.scenario.id}. ${r.scenario.label}${flag} | ${r.tool} | ${r.pipelining} | ${fmtInt(ra)} | ${fmtInt(rb)} | ${fmt(rb / ra, 2)} | ${pairedCell} | ${fmt(ra / base, 2)} | ${fmt(rb / base, 2)} | ${fmt(ma, 2)} | ${fmt(mb, 2)} | ${fmt(pa, 2)} | ${fmt(pb, 2)} | ${fmt(pb / pa, 2)} | ${a.map((s) => fmtInt(s.rps)).join(', ')} | ${b.map((s) => fmtInt(s.rps)).join(', ')} |`,
      );
    }
    out.push(
      '',
      '_B ÷ A_ above 1: B served more requests per second (req/s), or its p99 was longer (p99). Medians over the rounds; each round measured A and then B back to back, on the same data.',
      '',
    );
  }
  const disturbed = samples.filter((s) => (s.otherCpuPct ?? 0) > DISTURBED_PCT);
  out.push(
    disturbed.length === 0
      ? `No run was disturbed: other processes used at most ${DISTURBED_PCT} % of one core during every run.`
      : `**${disturbed.length} of ${samples.length} runs were disturbed** (other processes above ${DISTURBED_PCT} % of one core): ${disturbed
          .map(
            (s) =>
              `${s.run.scenario.id}${tag(s.run.scenario, s.side)}/${s.run.tool}/p${s.run.pipelining}/round ${s.round} (${fmt(s.otherCpuPct, 0)} %)`,
          )
          .join(', ')}.`,
    '',
  );
  const drained = runs
    .flatMap((r) =>
      sidesOf(r.scenario).map((side) => ({ r, side, ss: of(r, side).filter((s) => s.drainSeconds >= 1 || s.drainSeconds < 0) })),
    )
    .filter(({ ss }) => ss.length > 0)
    .map(
      ({ r, side, ss }) =>
        `${r.scenario.id}${tag(r.scenario, side)}/${r.tool}/p${r.pipelining} (${ss.map((s) => (s.drainSeconds < 0 ? 'gave up' : `${s.drainSeconds.toFixed(1)} s`)).join(', ')})`,
    );
  out.push(
    drained.length === 0
      ? 'recd was idle within a second before every run.'
      : `Before these runs recd was still answering the previous run's requests (left in flight when its load stopped) and was waited for: ${drained.join(', ')}.`,
    '',
  );
  if (flagged.length > 0)
    out.push(
      '**Flagged: runs with non-2xx responses, errors or unanswered requests** (their req/s is not a valid measurement)',
      '',
      ...flagged,
      '',
    );
  else out.push('No run had non-2xx responses, errors or unanswered requests.', '');
  out.push(
    `_errors_, _unanswered_, _CPU %_ and _p50_/_p99_ as in the platform table above (bench/http/run.ts): CPU 100 % = one core; _Redis_ = the redis-server recd runs on; _other_ = every process but the runner, wrk, ${sides.length > 1 ? 'the three servers and both redis-servers' : 'both servers and redis-server'}. A target counts as met only with no non-2xx, errors or unanswered requests.`,
    '',
  );
  return out.join('\n');
}

// A slow scenario leaves up to `connections` requests in flight when its load stops, and recd works on
// them after the load generator has gone: wait until recd is idle (under 10 % of a core for 250 ms) so
// that backlog is not measured as part of the next run. Returns the seconds waited, -1 on giving up.
async function drain(recd: Managed, maxMs = 120_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const c0 = cpuSeconds(recd.child.pid);
    await sleep(250);
    const c1 = cpuSeconds(recd.child.pid);
    if (c0 === undefined || c1 === undefined) return 0;
    if (((c1 - c0) / 0.25) * 100 < 10) return Math.max(0, (Date.now() - t0) / 1000 - 0.25);
    if (Date.now() - t0 > maxMs) return -1;
  }
}

// drain() for every recd in turn: the seconds waited in all, -1 when any gave up.
async function drainAll(recds: Managed[]): Promise<number> {
  let total = 0;
  for (const recd of recds) {
    const d = await drain(recd);
    if (d < 0) return -1;
    total += d;
  }
  return total;
}

// The loop's delay p99 and, in brackets, the same less the time recd waited for a core (medians over
// the rounds; '—' for the hello-world).
function loopCell(ss: Sample[]): string {
  const late = median(ss.map((s) => s.loopP99ms));
  if (!Number.isFinite(late)) return fmt(late, 2);
  const own = median(ss.map((s) => s.loop?.ownP99 ?? NaN));
  return Number.isFinite(own) ? `${fmt(late, 2)} (${fmt(own, 2)})` : fmt(late, 2);
}

// Scavenges per second of load and their mean pause, medians over the rounds ('' for the hello-world).
function gcCell(ss: Sample[]): string {
  const with_ = ss.filter((s) => s.loop !== undefined);
  if (with_.length === 0) return '';
  const perS = median(with_.map((s) => s.loop!.scavenges / settings.seconds));
  const meanMs = median(with_.map((s) => (s.loop!.scavenges > 0 ? s.loop!.scavengeMs / s.loop!.scavenges : 0)));
  return `${fmt(perS, 1)} / ${fmt(meanMs, 2)}`;
}

// loopFile: where the server keeps its event-loop delay histogram (undefined: the hello-world).
// redisPids: the Redis the server runs on (none for the hello-world).
async function measure(
  dir: string,
  run: Run,
  round: number,
  side: Side,
  t: Target,
  server: Managed,
  loopFile: string | undefined,
  recds: Managed[],
  ownPids: (number | undefined)[],
  redisPids: (number | undefined)[],
): Promise<Sample> {
  const drainSeconds = await drainAll(recds);
  if (drainSeconds < 0 || drainSeconds >= 1)
    process.stderr.write(
      drainSeconds < 0
        ? '  (recd still busy after 120 s: measuring anyway)\n'
        : `  (waited ${drainSeconds.toFixed(1)} s for recd to finish the previous run's requests)\n`,
    );
  await quietBeforeRun(ownPids);
  if (loopFile) loopDelayStart(server);
  const m = await measureLoad(dir, run.tool, t, run.pipelining, server.child.pid, ownPids, redisPids);
  const loop = loopFile ? await loopDelayRead(server, loopFile) : undefined;
  return { ...m, run, round, side, drainSeconds, loopP99ms: loop?.p99 ?? NaN, loop };
}

// One build of recd under test, with its own private redis-server, data and token.
interface Build<S> {
  side: Side;
  cli: string;
  recd: Managed;
  relaunch(env?: Record<string, string>): Managed; // the same build, port, Redis and environment (plus `env` from now on) in a new process
  base: string;
  token: string;
  setup: S;
  targets: Map<string, Target>;
  rssAfterSetup: Rss | undefined; // recd's memory once the data is in and trained
}

// BENCH_RECD_CLI_B=/path/to/other/dist/src/cli.js: a second build of recd (B) measured beside this
// checkout's (A) in the same run; undefined when unset.
function cliB(): string | undefined {
  const raw = process.env.BENCH_RECD_CLI_B;
  if (raw === undefined || raw.trim() === '') return undefined;
  const cli = resolve(raw.trim());
  if (!existsSync(cli)) throw new Error(`BENCH_RECD_CLI_B: no file at ${cli} (give the other build's dist/src/cli.js)`);
  return cli;
}

// BENCH_RECD_B_ENV=NAME=value,NAME=value: environment for build B only, so one build can be measured against
// itself with a setting changed (e.g. BENCH_RECD_B_ENV=RECD_METRICS_PORT= turns metrics off in B; empty = unset).
function envB(): Record<string, string> {
  const raw = process.env.BENCH_RECD_B_ENV ?? '';
  const out: Record<string, string> = {};
  for (const pair of raw
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`BENCH_RECD_B_ENV: expected NAME=value, got ${JSON.stringify(pair)}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export async function runRecoBench<S extends { trained: Trained }>(b: RecoBench<S>): Promise<void> {
  const SCENARIOS = b.scenarios;
  const CLI_B = cliB();
  await benchProgram(b.name, async (redis, dir) => {
    let failed = false;
    const treeAtStart = gitState();
    const wrkVersion = settings.wrk ? wrkAvailable() : undefined;
    const tools: Tool[] = wrkVersion ? ['autocannon', 'wrk'] : ['autocannon'];
    const runs: Run[] = [];
    for (const tool of tools) for (const scenario of SCENARIOS) runs.push({ scenario, tool, pipelining: 1 });
    if (process.env.BENCH_RECO_PIPELINED !== '0')
      for (const scenario of SCENARIOS.filter((sc) => sc.pipelined)) runs.push({ scenario, tool: 'autocannon', pipelining: 10 });
    const sides: Side[] = CLI_B ? ['A', 'B'] : ['A'];
    // Scenario ids as progress and checks show them: tagged (A) or (B) only when there are two builds.
    const tagged = (sc: Scenario, side: Side) => `${sc.id}${CLI_B && sc.target === 'recd' ? ` (${side})` : ''}`;

    const recdEnv = { RECD_ALS_FACTORS: b.factors, ...b.env };
    const recdPort = await freePort();
    const logLevel = recdLogLevel();
    const external = b.redis ? await b.redis(dir) : undefined;
    const redisUrlA = external?.url ?? redis.url;
    const loopA = loopDelayLaunch(recdNodeArgs(), dir, 'A');
    const envA: Record<string, string> = {};
    const launchA = (more: Record<string, string> = {}) => {
      Object.assign(envA, more);
      return launchRecd('recd', {
        port: recdPort,
        redisUrl: redisUrlA,
        env: { ...recdEnv, ...envA, ...loopA.env },
        nodeArgs: loopA.nodeArgs,
      });
    };
    const recd = launchA();
    // B: the other build on a redis-server of its own (builds may differ in what they store), given the same data below.
    let other:
      | {
          cli: string;
          recd: Managed;
          relaunch(env?: Record<string, string>): Managed;
          port: number;
          redis: EmbeddedRedis;
          loopFile: string;
        }
      | undefined;
    if (CLI_B) {
      const redisB = await startRedisServer(join(dir, 'redis-b'));
      atCleanup(() => redisB.stop());
      if (redisB.port === 6379) throw new Error('refusing to use port 6379');
      process.stderr.write(`redis-server for B on ${redisB.url} (pid ${redisB.pid})\n`);
      const port = await freePort();
      const loopB = loopDelayLaunch(recdNodeArgs(), dir, 'B');
      const moreB: Record<string, string> = {};
      const relaunch = (more: Record<string, string> = {}) => {
        Object.assign(moreB, more);
        return launchRecd('recd-B', {
          cli: CLI_B,
          port,
          redisUrl: redisB.url,
          env: { ...recdEnv, ...envB(), ...moreB, ...loopB.env },
          nodeArgs: loopB.nodeArgs,
        });
      };
      other = { cli: CLI_B, port, redis: redisB, loopFile: loopB.file, recd: relaunch(), relaunch };
    }
    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const recdBase = `http://${HOST}:${recdPort}`;
    await waitForHttp(recd, `${recdBase}/v1/`, 20_000);
    process.stderr.write(
      `recd on ${recdBase} (pid ${recd.child.pid}), hello-world on http://${HOST}:${helloPort} (pid ${hello.child.pid})\n`,
    );
    if (other) {
      await waitForHttp(other.recd, `http://${HOST}:${other.port}/v1/`, 20_000);
      process.stderr.write(`recd B (${other.cli}) on http://${HOST}:${other.port} (pid ${other.recd.child.pid})\n`);
    }

    const targetsOf = (base: string, token: string) => {
      const targets = new Map<string, Target>();
      for (const sc of SCENARIOS) {
        const headers: Record<string, string> = {};
        if (sc.target === 'recd') headers.authorization = `Bearer ${token}`;
        if (sc.body !== undefined || sc.randomSession) headers['content-type'] = 'application/json';
        targets.set(sc.id, {
          url: (sc.target === 'hello' ? `http://${HOST}:${helloPort}` : base) + sc.path,
          method: sc.method,
          headers,
          ...(sc.body !== undefined ? { body: sc.body } : {}),
          ...(sc.randomPath ? { randomPath: sc.randomPath } : {}),
          ...(sc.randomSession ? { randomSession: sc.randomSession } : {}),
        });
      }
      return targets;
    };
    const ready = async (
      side: Side,
      cli: string,
      first: Managed,
      relaunch: (env?: Record<string, string>) => Managed,
      base: string,
      redisUrl: string,
    ): Promise<Build<S>> => {
      const { token, dbId } = await backendToken(base, { item_id_type: 'uint32', user_id_type: 'uint32' });
      process.stderr.write(`${side === 'B' ? 'B: ' : ''}backend token obtained for database ${dbId}\n`);
      let m = first;
      const ctx: SetupContext = {
        redisUrl,
        pid: () => m.child.pid!,
        restart: async (env) => {
          await stop(m);
          m = relaunch(env);
          await waitForHttp(m, `${base}/v1/`, 20_000);
        },
      };
      const setup = await b.setup(base, token, ctx);
      const rssAfterSetup = await rssOf(m.child.pid);
      process.stderr.write(`${side === 'B' ? 'B: ' : ''}recd RSS after the set-up: ${rssLine(rssAfterSetup)}\n`);
      return { side, cli, recd: m, relaunch, base, token, setup, targets: targetsOf(base, token), rssAfterSetup };
    };
    const builds: Build<S>[] = [await ready('A', CLI, recd, launchA, recdBase, redisUrlA)];
    if (other) builds.push(await ready('B', other.cli, other.recd, other.relaunch, `http://${HOST}:${other.port}`, other.redis.url));
    const [a] = builds as [Build<S>];
    const { token, setup } = a;
    const buildOf = (side: Side) => builds.find((x) => x.side === side)!;
    const serverOf = (sc: Scenario, side: Side) => (sc.target === 'hello' ? hello : buildOf(side).recd);
    // Refilled when BENCH_FRESH_PROCESSES restarts the recds.
    const recds = builds.map((x) => x.recd);
    const ownPids = [
      hello.child.pid,
      redis.pid,
      ...(external?.pids ?? []),
      ...(other ? [other.redis.pid] : []),
      ...recds.map((m) => m.child.pid),
    ];
    const warmUp = async (sc: Scenario, side: Side) => {
      await drainAll(recds);
      const w = await runAutocannon(buildOf(side).targets.get(sc.id)!, 1, settings.warmupSeconds);
      process.stderr.write(
        `  warm-up ${tagged(sc, side)}: ${fmtInt(w.rps)} req/s${w.non2xx > 0 || w.errors > 0 || w.unanswered > 0 ? `, ${w.non2xx} non-2xx, ${w.errors} errors, ${w.unanswered} unanswered (${w.statusCodes})` : ''}\n`,
      );
    };
    // A new process for every build: started as the first was, serving once every scenario answers 200
    // (its model loaded from Redis), then warmed up like the first.
    const restartAll = async () => {
      for (const x of builds) {
        await stop(x.recd);
        x.recd = x.relaunch();
        await waitForHttp(x.recd, `${x.base}/v1/`, 20_000);
        for (const sc of SCENARIOS.filter((sc) => sc.target === 'recd')) {
          const t = x.targets.get(sc.id)!;
          for (let waited = 0; ; waited += 250) {
            const r = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body });
            await r.arrayBuffer();
            if (r.status === 200) break;
            if (waited > 120_000) throw new Error(`restarted recd ${x.side}: scenario ${sc.id} still answers ${r.status} after 120 s`);
            await sleep(250);
          }
        }
        process.stderr.write(`recd ${x.side} restarted (pid ${x.recd.child.pid})\n`);
      }
      recds.splice(0, recds.length, ...builds.map((x) => x.recd));
      ownPids.splice(ownPids.length - builds.length, builds.length, ...recds.map((m) => m.child.pid));
      if (settings.warmupSeconds > 0)
        for (const x of builds) for (const sc of SCENARIOS.filter((sc) => sc.target === 'recd')) await warmUp(sc, x.side);
    };
    const sidesOf = (sc: Scenario): Side[] => (sc.target === 'recd' ? sides : ['A']);

    // Each scenario answers 200 once before any load, with answers that make sense.
    const checks: string[] = [];
    for (const sc of SCENARIOS) {
      for (const side of sidesOf(sc)) {
        const x = buildOf(side);
        const t = x.targets.get(sc.id)!;
        const id = tagged(sc, side);
        const t0 = performance.now();
        const r = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body });
        const text = await r.text();
        const ms = performance.now() - t0;
        if (r.status !== 200) throw new Error(`scenario ${id} (${t.method} ${t.url}) answers ${r.status} before any load: ${text}`);
        process.stderr.write(`  ${id}: ${t.method} ${t.url} -> ${r.status} in ${ms.toFixed(1)} ms ${text.slice(0, 200)}\n`);
        if (sc.target !== 'recd') continue;
        const again: number[] = [];
        for (let k = 0; k < 5; k++) {
          const a0 = performance.now();
          await (await fetch(t.url, { method: t.method, headers: t.headers, body: t.body })).arrayBuffer();
          again.push(performance.now() - a0);
        }
        checks.push(
          `${id}: first answer in ${ms.toFixed(1)} ms, then ${fmt(median(again), 1)} ms (median of 5, one at a time): ${b.check(sc, JSON.parse(text), x.setup)}`,
        );
      }
    }

    if (settings.warmupSeconds > 0) {
      process.stderr.write(`warm-up: ${settings.warmupSeconds} s per scenario (autocannon, pipelining 1, not recorded)\n`);
      for (const sc of SCENARIOS) {
        for (const side of sidesOf(sc)) await warmUp(sc, side);
      }
    }

    const samples: Sample[] = [];
    const startedAt = new Date();
    const loadAtStart = loadAvg();
    let incomplete: string | undefined;
    let current = '';
    try {
      for (let round = 1; round <= settings.rounds; round++) {
        if (round > 1 && settings.freshProcesses) {
          current = `restarting recd before round ${round}`;
          await restartAll();
        }
        for (const run of runs) {
          const sc = run.scenario;
          // With two builds, each recd scenario runs on both back to back, A first in odd rounds and
          // B first in even ones, so that neither always runs on the machine the other left behind.
          for (const side of round % 2 === 1 ? sidesOf(sc) : [...sidesOf(sc)].reverse()) {
            const id = tagged(sc, side);
            current = `round ${round}, ${run.tool}, pipelining ${run.pipelining}, scenario ${id} (${sc.method} ${sc.path})`;
            for (const m of recds) assertAlive(m);
            assertAlive(hello);
            const loopFile = sc.target === 'hello' ? undefined : side === 'A' ? loopA.file : other!.loopFile;
            const redisPids = sc.target === 'hello' ? [] : side === 'A' ? (external?.pids ?? [redis.pid]) : [other!.redis.pid];
            const s = await measure(
              dir,
              run,
              round,
              side,
              buildOf(side).targets.get(sc.id)!,
              serverOf(sc, side),
              loopFile,
              recds,
              ownPids,
              redisPids,
            );
            samples.push(s);
            const warn =
              s.non2xx > 0 || s.errors > 0 || s.unanswered > 0
                ? `  ⚠ ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered ${s.statusCodes}`
                : '';
            process.stderr.write(
              `round ${round}/${settings.rounds} p=${run.pipelining} ${run.tool.padEnd(10)} ${id}: ${fmtInt(s.rps).padStart(8)} req/s  p50 ${fmt(s.p50ms, 2)} ms  p99 ${fmt(s.p99ms, 2)} ms  CPU server ${fmt(s.serverCpuPct, 0)} % redis ${fmt(s.redisCpuPct, 0)} % gen ${fmt(s.generatorCpuPct, 0)} % other ${fmt(s.otherCpuPct, 0)} %${warn}\n`,
            );
            assertAlive(serverOf(sc, side));
          }
        }
      }
    } catch (err) {
      failed = true;
      const msg = (err as Error).message;
      incomplete = `stopped during ${current}: ${msg.split('\n')[0]}`;
      process.stderr.write(`bench ${b.name}: stopped during ${current}: ${msg}\n`);
    }

    const cpus = os.cpus();
    const modelLine = (x: Build<S>) => {
      const m = x.setup.trained.model;
      return `RECD_ALS_FACTORS=${b.factors}; serving ${m.algorithm} model: ${m.factors} factors, ${m.n_users} users, ${m.n_items} items, ${m.n_ratings} ratings, ${m.neighbours} neighbours, ${fmtInt(Number(m.bytes))} bytes, params ${JSON.stringify(m.params)}, metrics ${JSON.stringify(m.metrics)}; the explicit retrain (and what followed it) took ${x.setup.trained.retrainSeconds.toFixed(1)} s after the upload; tasks (oldest first): ${x.setup.trained.tasks}`;
    };
    const rssAfterLoad = new Map<Side, Rss | undefined>();
    for (const x of builds) rssAfterLoad.set(x.side, await rssOf(x.recd.child.pid));
    const memoryLine = (x: Build<S>) =>
      `${rssLine(x.rssAfterSetup)} after the set-up and training; ${rssLine(rssAfterLoad.get(x.side))} after the load runs`;
    const extra = b.extra ? await b.extra(recdBase, token, setup, redis) : [];
    const metaB = other ? Object.fromEntries(Object.entries(b.meta(buildOf('B').setup)).map(([k, v]) => [`${k} (B)`, v])) : {};
    const meta: Record<string, string> = {
      Machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
      Node: process.version,
      'recd under test': other
        ? `A: ${CLI}, ${treeAtStart}; B: ${other.cli}, ${gitState(resolve(dirname(other.cli), '../..'))}`
        : treeAtStart,
      Date: startedAt.toISOString(),
      'Load average (1/5/15 min) at start / end of measuring': `${loadAtStart} / ${loadAvg()}`,
      ...b.meta(setup),
      ...metaB,
      Model: modelLine(a),
      ...(other ? { 'Model (B)': modelLine(buildOf('B')) } : {}),
      'recd memory (VmRSS, VmHWM)': memoryLine(a),
      ...(other ? { 'recd memory (B)': memoryLine(buildOf('B')) } : {}),
      Settings: `${settings.connections} connections, ${settings.seconds} s per run, ${settings.rounds} interleaved rounds (median reported)${settings.freshProcesses ? ', every recd restarted before each round after the first (BENCH_FRESH_PROCESSES=1: each round a new process per build)' : ''}, ${settings.warmupSeconds} s warm-up per scenario; before each run, wait up to ${settings.quietWaitSeconds} s for other processes to use < ${settings.quietMaxPct} % of one core`,
      'Load generators': `${versionOf('autocannon')} (in the runner process)${wrkVersion ? `; ${wrkVersion} (-t1 -c${settings.connections})` : settings.wrk ? '; wrk not found on PATH: skipped' : '; wrk skipped (BENCH_WRK=0)'}`,
      Servers: `recd (\`node dist/src/cli.js serve\`, LOG_LEVEL=${logLevel}, RECD_WORKERS=${recdWorkers()}) and the hello-world (\`node dist/bench/http/hello-uws.js\`, ${versionOf('uWebSockets.js')}) as separate processes; ${external ? `recd on ${external.label}` : `private redis-server on port ${redis.port}`}${
        other
          ? `; build B (BENCH_RECD_CLI_B=${other.cli}${process.env.BENCH_RECD_B_ENV ? `, BENCH_RECD_B_ENV=${process.env.BENCH_RECD_B_ENV}` : ''}) as a third process with the same environment on its own private redis-server (port ${other.redis.port}), given the same data over HTTP and trained the same way; each round measures every recd scenario on both builds back to back, A first in odd rounds and B first in even ones`
          : ''
      }`,
    };
    process.stdout.write(`${report(samples, runs, sides, meta, checks, extra, incomplete)}\n`);
    return failed ? 1 : 0;
  });
}
