// CPU time from /proc: of a process (cpuSeconds) and of its tree (treeCpuSeconds), of the machine (machineBusySeconds), of our own processes (ownSeconds); waitForQuiet, loadAvg.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { sleep } from './processes.js';
import { settings } from './settings.js';

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

// cpuSeconds of a process and of every process under it (the workers of `recd serve --workers N`),
// from /proc; undefined when the process itself cannot be read.
export function treeCpuSeconds(pid: number | undefined): number | undefined {
  const own = cpuSeconds(pid);
  if (pid === undefined || own === undefined) return undefined;
  return own + descendants(pid).reduce((sum, p) => sum + (cpuSeconds(p) ?? 0), 0);
}

// Every process under pid (children, theirs, ...), from /proc.
export function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  for (let frontier = [pid]; frontier.length > 0; ) {
    const next = [...parent].filter(([, pp]) => frontier.includes(pp)).map(([p]) => p);
    out.push(...next);
    frontier = next;
  }
  return out;
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

export const loadAvg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// CPU seconds of our own processes (this runner, the servers and what they started, redis-server).
export function ownSeconds(pids: (number | undefined)[]): number | undefined {
  let total = process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
  for (const pid of pids) {
    const c = treeCpuSeconds(pid);
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
