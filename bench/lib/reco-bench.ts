// runRecoBench: the frame of the recommendation benchmarks (reco.ts, reco-large.ts, reco-scenario.ts), their runs and their report.
//
// recd and a bare uWebSockets.js hello-world as child processes on a private redis-server, a data set
// uploaded over HTTP and trained on, each scenario answered once and checked, then measured against the
// hello-world in the same run (the machinery of bench/lib: autocannon and wrk, CPU and disturbance
// checks, waiting for a quiet machine before each run).
import os from 'node:os';
import type { EmbeddedRedis } from '../../src/store/redis-server.js';
import { freePort } from '../../src/store/redis-server.js';
import { backendToken } from './api.js';
import { cpuSeconds, loadAvg } from './cpu.js';
import { runAutocannon, wrkAvailable, type Target, type Tool } from './load.js';
import { measureLoad, quietBeforeRun, type Loaded } from './measure.js';
import { assertAlive, launch, sleep, waitForHttp, waitForLine, type Managed } from './processes.js';
import { benchProgram } from './program.js';
import { fmt, fmtInt, gitState, median, versionOf } from './report.js';
import type { Trained } from './retrain.js';
import { HELLO, HOST, launchRecd, recdLogLevel } from './servers.js';
import { DISTURBED_PCT, settings } from './settings.js';

export interface Scenario {
  id: string; // 'h' is the hello-world every ratio is taken against
  label: string;
  target: 'hello' | 'recd';
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  randomPath?: Target['randomPath'];
  pipelined?: boolean; // also run at pipelining 10 (autocannon)
  goal?: { ratio?: number; p99ms?: number; of?: string }; // ratio against scenario `of` (default h) of the same run
}

export interface RecoBench<S extends { trained: Trained }> {
  name: string;
  factors: string; // RECD_ALS_FACTORS
  env?: Record<string, string>; // more of recd's environment
  scenarios: Scenario[];
  setup(base: string, token: string): Promise<S>; // uploads and trains (retrain())
  check(sc: Scenario, json: any, setup: S): string; // what one answer shows, checked against the data
  meta(setup: S): Record<string, string>; // the data set's lines of the report
  extra?(base: string, token: string, setup: S, redis: EmbeddedRedis): Promise<string[]>; // more report lines
}

interface Run {
  scenario: Scenario;
  tool: Tool;
  pipelining: number;
}

interface Sample extends Loaded {
  run: Run;
  round: number;
  drainSeconds: number; // how long recd took to finish what the previous run left in flight
}

function report(samples: Sample[], runs: Run[], meta: Record<string, string>, checks: string[], extra: string[], incomplete?: string): string {
  const out: string[] = [];
  if (incomplete) out.push(`**INCOMPLETE RUN: ${incomplete}**`, '');
  out.push('### Machine and settings', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push('', '### Answers before any load', '', ...checks.map((c) => `- ${c}`), '');
  if (extra.length > 0) out.push(...extra, '');
  out.push(
    '| Scenario | Tool | Pipelining | Median req/s | × hello-world (same run) | Target | p99 ms (median) | CPU % server / load gen / other (median) | Rounds req/s | non-2xx / errors / unanswered |',
    '|---|---|---:|---:|---:|---|---:|---|---|---|',
  );
  const flagged: string[] = [];
  const of = (r: Run) => samples.filter((s) => s.run.scenario.id === r.scenario.id && s.run.tool === r.tool && s.run.pipelining === r.pipelining).sort((x, y) => x.round - y.round);
  for (const r of runs) {
    const ss = of(r);
    if (ss.length === 0) continue;
    const base = median(samples.filter((s) => s.run.scenario.id === 'h' && s.run.tool === r.tool && s.run.pipelining === r.pipelining).map((s) => s.rps));
    const rps = median(ss.map((s) => s.rps));
    const ratio = rps / base;
    const against = r.scenario.goal?.of ?? 'h';
    const goalRatio = against === 'h' ? ratio : rps / median(samples.filter((s) => s.run.scenario.id === against && s.run.tool === r.tool && s.run.pipelining === r.pipelining).map((s) => s.rps));
    const p99 = median(ss.map((s) => s.p99ms));
    const non2xx = ss.reduce((n, s) => n + s.non2xx, 0);
    const errors = ss.reduce((n, s) => n + s.errors, 0);
    const unanswered = ss.reduce((n, s) => n + s.unanswered, 0);
    const bad = non2xx > 0 || errors > 0 || unanswered > 0;
    if (bad) {
      flagged.push(
        `- **${r.scenario.id}** ${r.tool}, pipelining ${r.pipelining}: ${ss
          .map((s) => `round ${s.round}: ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered${s.statusCodes ? ` (status ${s.statusCodes})` : ''}`)
          .join('; ')}`,
      );
    }
    const g = r.scenario.goal;
    const goal = !g
      ? ''
      : `${[g.ratio !== undefined ? `≥ ${g.ratio}×${against === 'h' ? '' : ` ${against} (${fmt(goalRatio, 2)}×)`}` : '', g.p99ms !== undefined ? `p99 ≤ ${g.p99ms} ms` : ''].filter(Boolean).join(', ')}: ${
          !bad && (g.ratio === undefined || goalRatio >= g.ratio) && (g.p99ms === undefined || (Number.isFinite(p99) && p99 <= g.p99ms)) ? 'met' : '**missed**'
        }`;
    out.push(
      `| ${r.scenario.id}. ${r.scenario.label} | ${r.tool} | ${r.pipelining} | ${fmtInt(rps)} | ${r.scenario.id === 'h' ? '1.00' : fmt(ratio, 2)} | ${goal} | ${fmt(p99, 2)} | ${fmt(median(ss.map((s) => s.serverCpuPct ?? NaN)), 0)} / ${fmt(
        median(ss.map((s) => s.generatorCpuPct ?? NaN)),
        0,
      )} / ${fmt(median(ss.map((s) => s.otherCpuPct ?? NaN)), 0)} | ${ss.map((s) => fmtInt(s.rps)).join(', ')} | ${bad ? `⚠ ${non2xx} / ${errors} / ${unanswered}` : '0 / 0 / 0'} |`,
    );
  }
  out.push('');
  const disturbed = samples.filter((s) => (s.otherCpuPct ?? 0) > DISTURBED_PCT);
  out.push(
    disturbed.length === 0
      ? `No run was disturbed: other processes used at most ${DISTURBED_PCT} % of one core during every run.`
      : `**${disturbed.length} of ${samples.length} runs were disturbed** (other processes above ${DISTURBED_PCT} % of one core): ${disturbed
          .map((s) => `${s.run.scenario.id}/${s.run.tool}/p${s.run.pipelining}/round ${s.round} (${fmt(s.otherCpuPct, 0)} %)`)
          .join(', ')}.`,
    '',
  );
  const drained = runs
    .map((r) => ({ r, ss: of(r).filter((s) => s.drainSeconds >= 1 || s.drainSeconds < 0) }))
    .filter(({ ss }) => ss.length > 0)
    .map(({ r, ss }) => `${r.scenario.id}/${r.tool}/p${r.pipelining} (${ss.map((s) => (s.drainSeconds < 0 ? 'gave up' : `${s.drainSeconds.toFixed(1)} s`)).join(', ')})`);
  out.push(
    drained.length === 0
      ? 'recd was idle within a second before every run.'
      : `Before these runs recd was still answering the previous run's requests (left in flight when its load stopped) and was waited for: ${drained.join(', ')}.`,
    '',
  );
  if (flagged.length > 0) out.push('**Flagged: runs with non-2xx responses, errors or unanswered requests** (their req/s is not a valid measurement)', '', ...flagged, '');
  else out.push('No run had non-2xx responses, errors or unanswered requests.', '');
  out.push(
    '_errors_, _unanswered_, _CPU %_ and _p99_ as in the platform table above (bench/http/run.ts): CPU 100 % = one core; _other_ = every process but the runner, wrk, both servers and redis-server. A target counts as met only with no non-2xx, errors or unanswered requests.',
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

async function measure(dir: string, run: Run, round: number, t: Target, server: Managed, recd: Managed, ownPids: (number | undefined)[]): Promise<Sample> {
  const drainSeconds = await drain(recd);
  if (drainSeconds < 0 || drainSeconds >= 1) process.stderr.write(drainSeconds < 0 ? '  (recd still busy after 120 s: measuring anyway)\n' : `  (waited ${drainSeconds.toFixed(1)} s for recd to finish the previous run's requests)\n`);
  await quietBeforeRun(ownPids);
  const m = await measureLoad(dir, run.tool, t, run.pipelining, server.child.pid, ownPids);
  return { ...m, run, round, drainSeconds };
}

export async function runRecoBench<S extends { trained: Trained }>(b: RecoBench<S>): Promise<void> {
  const SCENARIOS = b.scenarios;
  await benchProgram(b.name, async (redis, dir) => {
    let failed = false;
    const treeAtStart = gitState();
    const wrkVersion = settings.wrk ? wrkAvailable() : undefined;
    const tools: Tool[] = wrkVersion ? ['autocannon', 'wrk'] : ['autocannon'];
    const runs: Run[] = [];
    for (const tool of tools) for (const scenario of SCENARIOS) runs.push({ scenario, tool, pipelining: 1 });
    if (process.env.BENCH_RECO_PIPELINED !== '0') for (const scenario of SCENARIOS.filter((sc) => sc.pipelined)) runs.push({ scenario, tool: 'autocannon', pipelining: 10 });

    const recdPort = await freePort();
    const logLevel = recdLogLevel();
    const recd = launchRecd('recd', { port: recdPort, redisUrl: redis.url, env: { RECD_ALS_FACTORS: b.factors, ...b.env } });
    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const recdBase = `http://${HOST}:${recdPort}`;
    await waitForHttp(recd, `${recdBase}/v1/`, 20_000);
    process.stderr.write(`recd on ${recdBase} (pid ${recd.child.pid}), hello-world on http://${HOST}:${helloPort} (pid ${hello.child.pid})\n`);

    const { token, dbId } = await backendToken(recdBase, { item_id_type: 'uint32', user_id_type: 'uint32' });
    process.stderr.write(`backend token obtained for database ${dbId}\n`);
    const setup = await b.setup(recdBase, token);

    const targets = new Map<string, Target>();
    for (const sc of SCENARIOS) {
      const headers: Record<string, string> = {};
      if (sc.target === 'recd') headers.authorization = `Bearer ${token}`;
      if (sc.body !== undefined) headers['content-type'] = 'application/json';
      targets.set(sc.id, { url: (sc.target === 'hello' ? `http://${HOST}:${helloPort}` : recdBase) + sc.path, method: sc.method, headers, ...(sc.body !== undefined ? { body: sc.body } : {}), ...(sc.randomPath ? { randomPath: sc.randomPath } : {}) });
    }
    const serverOf = (sc: Scenario) => (sc.target === 'hello' ? hello : recd);
    const ownPids = [recd.child.pid, hello.child.pid, redis.pid];

    // Each scenario answers 200 once before any load, with answers that make sense.
    const checks: string[] = [];
    for (const sc of SCENARIOS) {
      const t = targets.get(sc.id)!;
      const t0 = performance.now();
      const r = await fetch(t.url, { method: t.method, headers: t.headers, body: t.body });
      const text = await r.text();
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`scenario ${sc.id} (${t.method} ${t.url}) answers ${r.status} before any load: ${text}`);
      process.stderr.write(`  ${sc.id}: ${t.method} ${t.url} -> ${r.status} in ${ms.toFixed(1)} ms ${text.slice(0, 200)}\n`);
      if (sc.target !== 'recd') continue;
      const again: number[] = [];
      for (let k = 0; k < 5; k++) {
        const a0 = performance.now();
        await (await fetch(t.url, { method: t.method, headers: t.headers, body: t.body })).arrayBuffer();
        again.push(performance.now() - a0);
      }
      checks.push(`${sc.id}: first answer in ${ms.toFixed(1)} ms, then ${fmt(median(again), 1)} ms (median of 5, one at a time): ${b.check(sc, JSON.parse(text), setup)}`);
    }

    if (settings.warmupSeconds > 0) {
      process.stderr.write(`warm-up: ${settings.warmupSeconds} s per scenario (autocannon, pipelining 1, not recorded)\n`);
      for (const sc of SCENARIOS) {
        await drain(recd);
        const w = await runAutocannon(targets.get(sc.id)!, 1, settings.warmupSeconds);
        process.stderr.write(`  warm-up ${sc.id}: ${fmtInt(w.rps)} req/s${w.non2xx > 0 || w.errors > 0 || w.unanswered > 0 ? `, ${w.non2xx} non-2xx, ${w.errors} errors, ${w.unanswered} unanswered (${w.statusCodes})` : ''}\n`);
      }
    }

    const samples: Sample[] = [];
    const startedAt = new Date();
    const loadAtStart = loadAvg();
    let incomplete: string | undefined;
    let current = '';
    try {
      for (let round = 1; round <= settings.rounds; round++) {
        for (const run of runs) {
          const sc = run.scenario;
          current = `round ${round}, ${run.tool}, pipelining ${run.pipelining}, scenario ${sc.id} (${sc.method} ${sc.path})`;
          assertAlive(recd);
          assertAlive(hello);
          const s = await measure(dir, run, round, targets.get(sc.id)!, serverOf(sc), recd, ownPids);
          samples.push(s);
          const warn = s.non2xx > 0 || s.errors > 0 || s.unanswered > 0 ? `  ⚠ ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered ${s.statusCodes}` : '';
          process.stderr.write(
            `round ${round}/${settings.rounds} p=${run.pipelining} ${run.tool.padEnd(10)} ${sc.id}: ${fmtInt(s.rps).padStart(8)} req/s  p99 ${fmt(s.p99ms, 2)} ms  CPU server ${fmt(s.serverCpuPct, 0)} % gen ${fmt(s.generatorCpuPct, 0)} % other ${fmt(s.otherCpuPct, 0)} %${warn}\n`,
          );
          assertAlive(serverOf(sc));
        }
      }
    } catch (err) {
      failed = true;
      const msg = (err as Error).message;
      incomplete = `stopped during ${current}: ${msg.split('\n')[0]}`;
      process.stderr.write(`bench ${b.name}: stopped during ${current}: ${msg}\n`);
    }

    const cpus = os.cpus();
    const m = setup.trained.model;
    const extra = b.extra ? await b.extra(recdBase, token, setup, redis) : [];
    const meta: Record<string, string> = {
      Machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
      Node: process.version,
      'recd under test': treeAtStart,
      Date: startedAt.toISOString(),
      'Load average (1/5/15 min) at start / end of measuring': `${loadAtStart} / ${loadAvg()}`,
      ...b.meta(setup),
      Model: `RECD_ALS_FACTORS=${b.factors}; serving ${m.algorithm} model: ${m.factors} factors, ${m.n_users} users, ${m.n_items} items, ${m.n_ratings} ratings, ${m.neighbours} neighbours, ${fmtInt(Number(m.bytes))} bytes, params ${JSON.stringify(m.params)}, metrics ${JSON.stringify(m.metrics)}; the explicit retrain (and what followed it) took ${setup.trained.retrainSeconds.toFixed(1)} s after the upload; tasks (oldest first): ${setup.trained.tasks}`,
      Settings: `${settings.connections} connections, ${settings.seconds} s per run, ${settings.rounds} interleaved rounds (median reported), ${settings.warmupSeconds} s warm-up per scenario; before each run, wait up to ${settings.quietWaitSeconds} s for other processes to use < ${settings.quietMaxPct} % of one core`,
      'Load generators': `${versionOf('autocannon')} (in the runner process)${wrkVersion ? `; ${wrkVersion} (-t1 -c${settings.connections})` : settings.wrk ? '; wrk not found on PATH: skipped' : '; wrk skipped (BENCH_WRK=0)'}`,
      Servers: `recd (\`node dist/src/cli.js serve\`, LOG_LEVEL=${logLevel}) and the hello-world (\`node dist/bench/http/hello-uws.js\`, ${versionOf('uWebSockets.js')}) as separate processes; private redis-server on port ${redis.port}`,
    };
    process.stdout.write(report(samples, runs, meta, checks, extra, incomplete) + '\n');
    return failed ? 1 : 0;
  });
}
