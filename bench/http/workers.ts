// Requests per second against the number of serving processes (`recd serve --workers N`): item-to-items
// as bench/http/reco.ts asks it (the hot item, and a random item of all per request) from recd with
// N = 1, 2, 3 workers, against the bare uWebSockets.js hello-world in the same run (as one process,
// and as N processes sharing a port the way recd's workers do).
//
//   npx tsc -p . && node dist/bench/http/workers.js      (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// One private redis-server holds the data (ml-latest-small uploaded over HTTP and trained, 64 factors:
// bench/lib/ml-small.ts); one recd per N runs beside the others on it, each on its own port, and loads
// the model in each of its workers (the warm-up reaches every worker: 64 connections spread over them).
// Each round runs every scenario on every N back to back (h, i, I; autocannon, then wrk), pipelining 1;
// medians over the rounds. Before each run: recd idle again (whatever the previous run left in flight
// answered) and the machine quiet (bench/lib/measure.ts). CPU % of a recd counts its supervisor and its
// workers; of the hello-world with N processes, all N.
// Also: BENCH_WORKER_COUNTS=1,2 (the Ns), RECD_ALS_FACTORS (default 64), and bench/lib/settings.ts's
// BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS, BENCH_WRK, BENCH_QUIET_*,
// BENCH_RECD_LOG_LEVEL, BENCH_NODE_ARGS. Progress goes to stderr, the markdown report to stdout.
import os from 'node:os';
import { freePort } from '../../src/store/redis-server.js';
import { backendToken } from '../lib/api.js';
import { loadAvg, treeCpuSeconds } from '../lib/cpu.js';
import { runAutocannon, wrkAvailable, type Tool } from '../lib/load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { measureLoad, quietBeforeRun, type Loaded } from '../lib/measure.js';
import { dataLine, loadMovies, upload } from '../lib/ml-small.js';
import { assertAlive, launch, sleep, waitForHttp, waitForLine, type Managed } from '../lib/processes.js';
import { benchProgram } from '../lib/program.js';
import { fmt, fmtInt, gitState, median, versionOf } from '../lib/report.js';
import { HELLO, HOST, launchRecd, recdLogLevel } from '../lib/servers.js';
import { DISTURBED_PCT, settings } from '../lib/settings.js';

const FACTORS = process.env.RECD_ALS_FACTORS || '64';
const COUNTS = (process.env.BENCH_WORKER_COUNTS ?? '1,2,3').split(',').map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(
      `BENCH_WORKER_COUNTS must be a comma-separated list of integers from 1 to 64, got ${JSON.stringify(process.env.BENCH_WORKER_COUNTS)}`,
    );
  return n;
});

const ITEM = 356; // Forrest Gump: the most rated movie (as bench/http/reco.ts)
const USER = 414; // whose rated items the set-up notes (as bench/http/reco.ts)
const MOVIE_IDS = loadMovies().map((m) => m.id);

interface Scenario {
  id: 'h' | 'i' | 'I';
  label: string;
  target: 'hello' | 'recd';
  path: string;
  randomPath?: Target['randomPath'];
}

const SCENARIOS: Scenario[] = [
  { id: 'h', label: 'bare uWS hello-world `GET /`', target: 'hello', path: '/' },
  {
    id: 'i',
    label: `item-to-items \`GET /v1/recommendation/items/${ITEM}/items/\``,
    target: 'recd',
    path: `/v1/recommendation/items/${ITEM}/items/`,
  },
  {
    id: 'I',
    label: `item-to-items, a random item of all ${MOVIE_IDS.length.toLocaleString('en-US')} per request`,
    target: 'recd',
    path: `/v1/recommendation/items/${ITEM}/items/`,
    randomPath: { prefix: '/v1/recommendation/items/', max: MOVIE_IDS.length, suffix: '/items/', ids: MOVIE_IDS },
  },
];

// The servers of one N: recd with N workers, and N hello-world processes on one port.
interface Servers {
  n: number;
  recd: Managed;
  recdBase: string;
  hellos: Managed[];
  helloBase: string;
}

interface Sample extends Loaded {
  scenario: Scenario;
  n: number;
  tool: Tool;
  round: number;
}

// recd idle (its supervisor and workers under 10 % of a core for 250 ms): what the previous run left in
// flight has been answered. Gives up after two minutes.
async function idle(recd: Managed): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < 120_000) {
    const c0 = treeCpuSeconds(recd.child.pid);
    await sleep(250);
    const c1 = treeCpuSeconds(recd.child.pid);
    if (c0 === undefined || c1 === undefined || ((c1 - c0) / 0.25) * 100 < 10) return;
  }
}

function report(samples: Sample[], tools: Tool[], meta: Record<string, string>, incomplete: string | undefined): string {
  const out: string[] = [];
  if (incomplete) out.push(`**INCOMPLETE RUN: ${incomplete}**`, '');
  out.push('### Machine and settings', '');
  for (const [k, v] of Object.entries(meta)) out.push(`- ${k}: ${v}`);
  const of = (id: string, n: number, tool: Tool) =>
    samples.filter((s) => s.scenario.id === id && s.n === n && s.tool === tool).sort((a, b) => a.round - b.round);
  const rps = (id: string, n: number, tool: Tool) => median(of(id, n, tool).map((s) => s.rps));
  out.push(
    '',
    '### Req/s against N',
    '',
    `| Scenario | Tool | ${COUNTS.map((n) => `N = ${n}`).join(' | ')} | ${COUNTS.slice(1)
      .map((n) => `N = ${n} ÷ N = ${COUNTS[0]}`)
      .join(' | ')} |`,
    `|---|---|${COUNTS.map(() => '---:').join('|')}|${COUNTS.slice(1)
      .map(() => '---:')
      .join('|')}|`,
  );
  for (const sc of SCENARIOS) {
    for (const tool of tools) {
      const base = rps(sc.id, COUNTS[0]!, tool);
      out.push(
        `| ${sc.id}. ${sc.label} | ${tool} | ${COUNTS.map((n) => fmtInt(rps(sc.id, n, tool))).join(' | ')} | ${COUNTS.slice(1)
          .map((n) => fmt(rps(sc.id, n, tool) / base, 2))
          .join(' | ')} |`,
      );
    }
  }
  out.push(
    '',
    '_N_: recd workers (`RECD_WORKERS=N`) for i and I; hello-world processes sharing one port for h.',
    '',
    '### Every run',
    '',
    '| Scenario | N | Tool | Median req/s | × hello-world, 1 process | × hello-world, N processes | p50 ms | p99 ms | CPU % server / load gen / other | Rounds req/s | non-2xx / errors / unanswered |',
    '|---|---:|---|---:|---:|---:|---:|---:|---|---|---|',
  );
  const flagged: string[] = [];
  for (const sc of SCENARIOS) {
    for (const n of COUNTS) {
      for (const tool of tools) {
        const ss = of(sc.id, n, tool);
        if (ss.length === 0) continue;
        const r = rps(sc.id, n, tool);
        const bad = ss.filter((s) => s.non2xx > 0 || s.errors > 0 || s.unanswered > 0);
        if (bad.length > 0)
          flagged.push(
            `- **${sc.id}** N = ${n}, ${tool}: ${bad.map((s) => `round ${s.round}: ${s.non2xx} non-2xx, ${s.errors} errors, ${s.unanswered} unanswered${s.statusCodes ? ` (status ${s.statusCodes})` : ''}`).join('; ')}`,
          );
        const sum = (f: (s: Sample) => number) => ss.reduce((k, s) => k + f(s), 0);
        const cpu = (f: (s: Sample) => number | undefined) => fmt(median(ss.map((s) => f(s) ?? NaN)), 0);
        out.push(
          `| ${sc.id}. ${sc.label} | ${n} | ${tool} | ${fmtInt(r)} | ${fmt(r / rps('h', COUNTS[0]!, tool), 2)} | ${fmt(r / rps('h', n, tool), 2)} | ${fmt(median(ss.map((s) => s.p50ms)), 2)} | ${fmt(median(ss.map((s) => s.p99ms)), 2)} | ${cpu((s) => s.serverCpuPct)} / ${cpu((s) => s.generatorCpuPct)} / ${cpu((s) => s.otherCpuPct)} | ${ss.map((s) => fmtInt(s.rps)).join(', ')} | ${bad.length > 0 ? `⚠ ${sum((s) => s.non2xx)} / ${sum((s) => s.errors)} / ${sum((s) => s.unanswered)}` : '0 / 0 / 0'} |`,
        );
      }
    }
  }
  const disturbed = samples.filter((s) => (s.otherCpuPct ?? 0) > DISTURBED_PCT);
  out.push(
    '',
    disturbed.length === 0
      ? `No run was disturbed: other processes used at most ${DISTURBED_PCT} % of one core during every run.`
      : `**${disturbed.length} of ${samples.length} runs were disturbed** (other processes above ${DISTURBED_PCT} % of one core): ${disturbed.map((s) => `${s.scenario.id}/N=${s.n}/${s.tool}/round ${s.round} (${fmt(s.otherCpuPct, 0)} %)`).join(', ')}.`,
    '',
    flagged.length > 0
      ? [
          '**Flagged: runs with non-2xx responses, errors or unanswered requests** (their req/s is not a valid measurement)',
          '',
          ...flagged,
        ].join('\n')
      : 'No run had non-2xx responses, errors or unanswered requests.',
    '',
    "_CPU %_: 100 % = one core; _server_: the hello-world processes, or recd's supervisor and workers; _load gen_: autocannon (this runner) or wrk; _other_: every process but the runner, wrk, the servers and redis-server. _p50_, _p99_ as the load generator reports them.",
    '',
  );
  return out.join('\n');
}

await benchProgram('workers', async (redis, dir) => {
  const treeAtStart = gitState();
  const wrkVersion = settings.wrk ? wrkAvailable() : undefined;
  const tools: Tool[] = wrkVersion ? ['autocannon', 'wrk'] : ['autocannon'];

  const servers: Servers[] = [];
  for (const n of COUNTS) {
    const recdPort = await freePort();
    const recd = launchRecd(`recd-${n}`, {
      port: recdPort,
      redisUrl: redis.url,
      env: { RECD_WORKERS: String(n), RECD_ALS_FACTORS: FACTORS },
    });
    // N hello-worlds on one given port: uWebSockets.js shares a port it is given (SO_REUSEPORT), as recd's workers do.
    const helloPort = await freePort();
    const hellos = Array.from({ length: n }, (_, k) => launch(`hello-${n}.${k + 1}`, [HELLO, String(helloPort)], { ...process.env }));
    for (const h of hellos) await waitForLine(h, /^(\d+)$/m, 10_000);
    servers.push({ n, recd, recdBase: `http://${HOST}:${recdPort}`, hellos, helloBase: `http://${HOST}:${helloPort}` });
  }
  for (const s of servers) {
    await waitForHttp(s.recd, `${s.recdBase}/v1/`, 30_000);
    process.stderr.write(
      `N = ${s.n}: recd on ${s.recdBase} (pid ${s.recd.child.pid}), hello-world on ${s.helloBase} (pids ${s.hellos.map((h) => h.child.pid).join(', ')})\n`,
    );
  }

  // The data, through the first recd: every recd reads the same Redis.
  const { token, dbId } = await backendToken(servers[0]!.recdBase, { item_id_type: 'uint32', user_id_type: 'uint32' });
  process.stderr.write(`backend token obtained for database ${dbId}\n`);
  const setup = await upload(servers[0]!.recdBase, token, FACTORS, USER);

  const target = (sc: Scenario, s: Servers): Target =>
    sc.target === 'hello'
      ? { url: s.helloBase + sc.path, method: 'GET', headers: {} }
      : {
          url: s.recdBase + sc.path,
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
          ...(sc.randomPath ? { randomPath: sc.randomPath } : {}),
        };
  const ownPids = [redis.pid, ...servers.flatMap((s) => [s.recd.child.pid, ...s.hellos.map((h) => h.child.pid)])];

  // The hot item answers alike from every recd, without the item itself.
  const checks: string[] = [];
  for (const s of servers) {
    const r = await fetch(target(SCENARIOS[1]!, s).url, { headers: { authorization: `Bearer ${token}` } });
    const json = (await r.json()) as { items_id?: number[] };
    const ids = json.items_id ?? [];
    if (r.status !== 200 || ids.length === 0 || ids.includes(ITEM))
      throw new Error(`N = ${s.n}: item-to-items answers ${r.status} ${JSON.stringify(json).slice(0, 300)}`);
    checks.push(`N = ${s.n}: ${ids.length} items, first ${ids.slice(0, 5).join(', ')}`);
  }
  if (settings.warmupSeconds > 0) {
    process.stderr.write(`warm-up: ${settings.warmupSeconds} s per recd scenario and N (autocannon, not recorded)\n`);
    for (const s of servers) {
      for (const sc of SCENARIOS.filter((x) => x.target === 'recd')) {
        await idle(s.recd);
        const w = await runAutocannon(target(sc, s), 1, settings.warmupSeconds);
        process.stderr.write(
          `  warm-up ${sc.id} N = ${s.n}: ${fmtInt(w.rps)} req/s${w.non2xx + w.errors + w.unanswered > 0 ? `, ${w.non2xx} non-2xx, ${w.errors} errors, ${w.unanswered} unanswered` : ''}\n`,
        );
      }
    }
  }

  const samples: Sample[] = [];
  const startedAt = new Date();
  const loadAtStart = loadAvg();
  let incomplete: string | undefined;
  let current = '';
  try {
    for (let round = 1; round <= settings.rounds; round++) {
      for (const tool of tools) {
        for (const sc of SCENARIOS) {
          for (const s of servers) {
            current = `round ${round}, ${tool}, scenario ${sc.id}, N = ${s.n}`;
            for (const m of [s.recd, ...s.hellos]) assertAlive(m);
            if (sc.target === 'recd') await idle(s.recd);
            await quietBeforeRun(ownPids);
            const serverPids = sc.target === 'recd' ? s.recd.child.pid! : s.hellos.map((h) => h.child.pid!);
            const m = await measureLoad(dir, tool, target(sc, s), 1, serverPids, ownPids);
            samples.push({ ...m, scenario: sc, n: s.n, tool, round });
            const warn =
              m.non2xx + m.errors + m.unanswered > 0
                ? `  ⚠ ${m.non2xx} non-2xx, ${m.errors} errors, ${m.unanswered} unanswered ${m.statusCodes}`
                : '';
            process.stderr.write(
              `round ${round}/${settings.rounds} ${tool.padEnd(10)} ${sc.id} N=${s.n}: ${fmtInt(m.rps).padStart(8)} req/s  p50 ${fmt(m.p50ms, 2)} ms  p99 ${fmt(m.p99ms, 2)} ms  CPU server ${fmt(m.serverCpuPct, 0)} % gen ${fmt(m.generatorCpuPct, 0)} % other ${fmt(m.otherCpuPct, 0)} %${warn}\n`,
            );
          }
        }
      }
    }
  } catch (err) {
    const msg = (err as Error).message;
    incomplete = `stopped during ${current}: ${msg.split('\n')[0]}`;
    process.stderr.write(`bench workers: stopped during ${current}: ${msg}\n`);
  }

  const cpus = os.cpus();
  const m = setup.trained.model;
  const meta: Record<string, string> = {
    Machine: `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores (os.availableParallelism() ${os.availableParallelism()}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
    Node: process.version,
    'recd under test': treeAtStart,
    Date: startedAt.toISOString(),
    'Load average (1/5/15 min) at start / end of measuring': `${loadAtStart} / ${loadAvg()}`,
    Data: dataLine(setup),
    Model: `${m.algorithm}, ${m.factors} factors, ${m.n_users} users, ${m.n_items} items, ${m.n_ratings} ratings, ${fmtInt(Number(m.bytes))} bytes; trained in ${setup.trained.retrainSeconds.toFixed(1)} s after the upload`,
    'Answers before any load': checks.join('; '),
    Settings: `${settings.connections} connections, pipelining 1, ${settings.seconds} s per run, ${settings.rounds} interleaved rounds (median reported), ${settings.warmupSeconds} s warm-up per recd scenario and N; before each run, recd idle and up to ${settings.quietWaitSeconds} s for other processes to use < ${settings.quietMaxPct} % of one core`,
    'Load generators': `${versionOf('autocannon')} (in the runner process)${wrkVersion ? `; ${wrkVersion} (-t1 -c${settings.connections})` : settings.wrk ? '; wrk not found on PATH: skipped' : '; wrk skipped (BENCH_WRK=0)'}, on the same machine as the servers`,
    Servers: `for each N in ${COUNTS.join(', ')}: recd (\`node dist/src/cli.js serve\` with RECD_WORKERS=N, LOG_LEVEL=${recdLogLevel()}, all on one private redis-server on port ${redis.port}) and N hello-worlds (\`node dist/bench/http/hello-uws.js PORT\`, ${versionOf('uWebSockets.js')}) on one port, all running throughout`,
  };
  process.stdout.write(`${report(samples, tools, meta, incomplete)}\n`);
  return incomplete ? 1 : 0;
});
