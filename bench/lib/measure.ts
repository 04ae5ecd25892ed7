// One measured load run (measureLoad): the load generator's figures with the CPU of the server, the machine and every other process.
import { machineBusySeconds, ownSeconds, treeCpuSeconds, waitForQuiet } from './cpu.js';
import { runAutocannon, runWrk, type Measured, type Tool } from './load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { settings } from './settings.js';

export interface Loaded extends Measured {
  serverCpuPct: number | undefined;
  machineCpuPct: number | undefined; // all processes, all cores (200 % = both cores of a 2-core machine)
  otherCpuPct: number | undefined; // machine minus ownPids and wrk
  redisCpuPct: number | undefined; // the redis-server processes the server runs on (undefined when none given)
}

// waitForQuiet(), saying so on stderr when it waited a second or more or gave up. Returns its answer.
export async function quietBeforeRun(ownPids: (number | undefined)[]): Promise<number> {
  const quiet = await waitForQuiet(ownPids);
  if (quiet < 0 || quiet >= 1)
    process.stderr.write(
      quiet < 0
        ? `  (machine still busy after ${settings.quietWaitSeconds} s: measuring anyway)\n`
        : `  (waited ${quiet.toFixed(0)} s for the machine to be quiet)\n`,
    );
  return quiet;
}

// treeCpuSeconds of several processes added up; undefined when any cannot be read.
function treesCpuSeconds(pids: readonly (number | undefined)[]): number | undefined {
  return pids.reduce<number | undefined>((sum, pid) => {
    const c = treeCpuSeconds(pid);
    return sum === undefined || c === undefined ? undefined : sum + c;
  }, 0);
}

// `tool` against `t` for settings.seconds; ownPids are this runner's other processes (servers, redis-server).
// The server's CPU counts the processes under it too (a supervisor's workers); several server pids
// (processes sharing a port) add up. redisPids: the Redis the server runs on, whose CPU shares the
// machine's cores with it (a cluster's several processes add up).
export async function measureLoad(
  dir: string,
  tool: Tool,
  t: Target,
  pipelining: number,
  server: number | undefined | readonly number[],
  ownPids: (number | undefined)[],
  redisPids: readonly (number | undefined)[] = [],
): Promise<Loaded> {
  const serverPids = typeof server === 'number' || server === undefined ? [server] : server;
  const serverCpu = () => treesCpuSeconds(serverPids);
  const redisCpu = () => (redisPids.length === 0 ? undefined : treesCpuSeconds(redisPids));
  const cpu0 = serverCpu();
  const redis0 = redisCpu();
  const busy0 = machineBusySeconds();
  const own0 = ownSeconds(ownPids);
  const wall0 = process.hrtime.bigint();
  const m =
    tool === 'autocannon' ? await runAutocannon(t, pipelining, settings.seconds) : await runWrk(dir, t, pipelining, settings.seconds);
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const cpu1 = serverCpu();
  const redis1 = redisCpu();
  const busy1 = machineBusySeconds();
  const own1 = ownSeconds(ownPids);
  // wrk's CPU is not among ownPids: take its sampled share out as well.
  const wrkSeconds = tool === 'wrk' && m.generatorCpuPct !== undefined ? (m.generatorCpuPct / 100) * wall : 0;
  return {
    ...m,
    serverCpuPct: cpu0 !== undefined && cpu1 !== undefined ? ((cpu1 - cpu0) / wall) * 100 : undefined,
    machineCpuPct: busy0 !== undefined && busy1 !== undefined ? ((busy1 - busy0) / wall) * 100 : undefined,
    redisCpuPct: redis0 !== undefined && redis1 !== undefined ? ((redis1 - redis0) / wall) * 100 : undefined,
    otherCpuPct:
      busy0 !== undefined && busy1 !== undefined && own0 !== undefined && own1 !== undefined
        ? Math.max(0, ((busy1 - busy0 - (own1 - own0) - wrkSeconds) / wall) * 100)
        : undefined,
  };
}
