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
import os from 'node:os';
import { backendToken, seedItems } from '../lib/api.js';
import { loadAvg } from '../lib/cpu.js';
import { runAutocannon, wrkAvailable, type Tool } from '../lib/load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { measureLoad, quietBeforeRun } from '../lib/measure.js';
import { assertAlive, launch, waitForHttp, waitForLine } from '../lib/processes.js';
import { benchProgram } from '../lib/program.js';
import { fmt, fmtInt, gitState, median, versionOf } from '../lib/report.js';
import { HELLO, HOST, launchRecd, recdLogLevel } from '../lib/servers.js';
import { DISTURBED_PCT, settings } from '../lib/settings.js';
import { freePort } from '../../src/store/redis-server.js';

// Settings: bench/lib/settings.ts (BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS,
// BENCH_PIPELINING, BENCH_WRK, BENCH_QUIET_MAX_PCT, BENCH_QUIET_WAIT_SECONDS).
// Also: BENCH_SCENARIOS=a,c (a subset), BENCH_RECD_LOG_LEVEL (recd's LOG_LEVEL, default warn),
// BENCH_NODE_ARGS (node options for recd, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).

// ---------------------------------------------------------------------------------------------------
// Scenarios

type ScenarioId = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g';

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
  {
    id: 'd',
    label: 'recd `GET /v1/databases/current/status/` (Bearer, 1 Redis read)',
    target: 'recd',
    method: 'GET',
    path: '/v1/databases/current/status/',
    auth: true,
  },
  {
    id: 'f',
    label: 'recd `POST /v1/users/<id>/interactions/<id>/` (Bearer, JSON `{"interaction_type":"view"}`, one Redis script)',
    target: 'recd',
    method: 'POST',
    path: '/v1/users/00000000-0000-4000-8000-000000000077/interactions/4242/',
    auth: true,
    body: '{"interaction_type":"view"}',
  },
  {
    id: 'e',
    label: 'recd `GET /v1/items/4242/properties/` (Bearer, one of 10,000 items × 10 properties, in-memory view)',
    target: 'recd',
    method: 'GET',
    path: '/v1/items/4242/properties/',
    auth: true,
  },
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
  p50ms: number;
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

const t_ = (sc: Scenario) => `${sc.method} ${sc.path}`;

// ---------------------------------------------------------------------------------------------------
// Report

function report(samples: Sample[], tools: Tool[], meta: Record<string, string>, incomplete?: string): string {
  const out: string[] = [];
  if (incomplete) out.push(`**INCOMPLETE RUN: ${incomplete}**`, '');
  out.push('### Machine and settings', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  out.push('');
  out.push(
    '| Scenario | Tool | Pipelining | Median req/s | × hello-world (same run) | p50 ms (median) | p99 ms (median) | CPU % server / load gen / other (median) | Rounds req/s | non-2xx / errors / unanswered |',
    '|---|---|---:|---:|---:|---:|---:|---|---|---|',
  );
  const flagged: string[] = [];
  for (const tool of tools) {
    for (const p of settings.pipelinings) {
      const of = (id: ScenarioId) =>
        samples.filter((s) => s.tool === tool && s.pipelining === p && s.scenario === id).sort((x, y) => x.round - y.round);
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
            .map(
              (s) =>
                `round ${s.round}: ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered${s.statusCodes ? ` (status ${s.statusCodes})` : ''}`,
            )
            .join('; ');
          flagged.push(`- **${sc.id}** ${sc.label}, ${tool}, pipelining ${p}: ${codes}`);
        }
        out.push(
          `| ${sc.id}. ${sc.label} | ${tool} | ${p} | ${fmtInt(rps)} | ${sc.id === 'a' ? '1.00' : fmt(rps / base, 2)} | ${fmt(median(ss.map((s) => s.p50ms)), 2)} | ${fmt(median(ss.map((s) => s.p99ms)), 2)} | ${fmt(median(ss.map((s) => s.serverCpuPct ?? NaN)), 0)} / ${fmt(median(ss.map((s) => s.generatorCpuPct ?? NaN)), 0)} / ${fmt(
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
  if (flagged.length > 0)
    out.push(
      '**Flagged: scenarios with non-2xx responses, errors or unanswered requests** (their req/s is not a valid measurement)',
      '',
      ...flagged,
      '',
    );
  else out.push('No scenario had non-2xx responses, errors or unanswered requests.', '');
  out.push(
    '_errors_: autocannon errors + timeouts + resets + mismatches, or wrk socket errors (connect, read, write, timeout). _unanswered_: requests autocannon wrote that never got a response, beyond the connections × pipelining still in flight when a run stops (autocannon reconnects silently when the server closes a connection). _CPU %_: CPU time over wall time during the run, 100 % = one core: the server process, the load generator (autocannon: this whole process; wrk: sampled every 200 ms), and _other_: every other process on the machine (the machine busy time minus this runner, wrk, both servers and redis-server). _p50_, _p99_: wrk with pipelining measures one latency per batch of requests and sometimes prints 0.00us percentiles; those are shown as —.',
    '',
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  await benchProgram('http', async (redis, dir) => {
    let failed = false;
    const treeAtStart = gitState();
    const wrkVersion = settings.wrk ? wrkAvailable() : undefined;
    const tools: Tool[] = wrkVersion ? ['autocannon', 'wrk'] : ['autocannon'];

    const recdPort = await freePort();
    const recd = launchRecd('recd', { port: recdPort, redisUrl: redis.url });
    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env, BENCH_FLOOR_REDIS_URL: redis.url });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const recdBase = `http://${HOST}:${recdPort}`;
    await waitForHttp(recd, `${recdBase}/v1/`, 20_000);
    process.stderr.write(
      `recd on ${recdBase} (pid ${recd.child.pid}), hello-world on http://${HOST}:${helloPort} (pid ${hello.child.pid})\n`,
    );

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
        if (w.non2xx > 0 || w.errors > 0 || w.unanswered > 0)
          process.stderr.write(
            `  warm-up ${sc.id}: ${w.non2xx} non-2xx, ${w.errors} errors, ${w.unanswered} unanswered (${w.statusCodes})\n`,
          );
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
              const quietWaitSeconds = await quietBeforeRun(ownPids);
              const m = await measureLoad(dir, tool, t, p, server.child.pid, ownPids);
              const { serverCpuPct, machineCpuPct, otherCpuPct } = m;
              samples.push({ scenario: sc.id, tool, pipelining: p, round, ...m, quietWaitSeconds });
              const warn =
                m.non2xx > 0 || m.errors > 0 || m.unanswered > 0
                  ? `  ⚠ ${m.non2xx} non-2xx, ${m.errors} errors, ${m.unanswered} unanswered ${m.statusCodes}`
                  : '';
              process.stderr.write(
                `round ${round}/${settings.rounds} p=${p} ${tool.padEnd(10)} ${sc.id}: ${fmtInt(m.rps).padStart(8)} req/s  p50 ${fmt(m.p50ms, 2)} ms  p99 ${fmt(m.p99ms, 2)} ms  CPU server ${fmt(serverCpuPct, 0)} % gen ${fmt(m.generatorCpuPct, 0)} % machine ${fmt(machineCpuPct, 0)} % other ${fmt(otherCpuPct, 0)} %${warn}\n`,
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
      Servers: `recd (\`node dist/src/cli.js serve\`, LOG_LEVEL=${recdLogLevel()}) and the hello-world (\`node dist/bench/http/hello-uws.js\`, ${versionOf('uWebSockets.js')}) as separate processes; private redis-server on port ${redis.port}`,
    };
    process.stdout.write(`${report(samples, tools, meta, incomplete)}\n`);
    return failed ? 1 : 0;
  });
}

await main();
