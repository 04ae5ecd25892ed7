// The event-loop delay of a recd under load (loop-delay-preload.ts runs inside it): launch options
// that load the preload, and one reading per load run. With `--workers N` the preload runs in the
// supervisor and in each worker it forks (fork passes on the node arguments); the workers serve, so
// they are the ones read, and the reading is the worst of theirs.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Managed } from './processes.js';
import { sleep } from './processes.js';
import { descendants } from './cpu.js';

const PRELOAD = resolve(dirname(fileURLToPath(import.meta.url)), 'loop-delay-preload.js');

export interface LoopDelay {
  p50: number; // ms the 1 ms timer fired late (its interval less 1 ms), median
  p99: number;
  max: number;
  ownP99: number; // p99 of how late, less the time the thread waited for a core (NaN: not measured)
  scavenges: number; // minor collections during the reading
  scavengeMs: number; // their total pause
  majors: number; // mark-compact collections (and their incremental steps)
  majorMs: number;
}

// Node arguments and environment that make a recd process keep the histogram in `file`.
export function loopDelayLaunch(
  nodeArgs: string[],
  dir: string,
  name: string,
): { nodeArgs: string[]; env: Record<string, string>; file: string } {
  const file = join(dir, `loop-delay-${name}.jsonl`);
  return { nodeArgs: [...nodeArgs, '--import', PRELOAD], env: { BENCH_LOOP_DELAY_FILE: file }, file };
}

// The processes that serve: the workers that run the preload, else recd itself (one worker, no
// supervisor).
function serving(recd: Managed): number[] {
  const pid = recd.child.pid;
  if (pid === undefined) return [];
  const workers = descendants(pid).filter((p) => commandLine(p).includes(PRELOAD));
  return workers.length > 0 ? workers : [pid];
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return ''; // gone meanwhile
  }
}

// Starts a reading (the histogram since the last one is dropped).
export function loopDelayStart(recd: Managed): void {
  for (const pid of serving(recd)) process.kill(pid, 'SIGUSR2');
}

// The histogram since loopDelayStart, the worst of the serving processes' (delays: the largest; the
// collections: summed); undefined when they did not all write one.
export async function loopDelayRead(recd: Managed, file: string): Promise<LoopDelay | undefined> {
  const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  const before = lines().length;
  const pids = serving(recd);
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  for (let k = 0; k < 40; k++) {
    await sleep(25);
    const now = lines();
    if (now.length >= before + pids.length) return worstOf(now.slice(before).map((l) => JSON.parse(l) as LoopDelay));
  }
  return undefined;
}

function worstOf(rs: LoopDelay[]): LoopDelay {
  const most = (k: 'p50' | 'p99' | 'max' | 'ownP99') => Math.max(...rs.map((r) => r[k]));
  const sum = (k: 'scavenges' | 'scavengeMs' | 'majors' | 'majorMs') => rs.reduce((s, r) => s + r[k], 0);
  return {
    p50: most('p50'),
    p99: most('p99'),
    max: most('max'),
    ownP99: most('ownP99'),
    scavenges: sum('scavenges'),
    scavengeMs: sum('scavengeMs'),
    majors: sum('majors'),
    majorMs: sum('majorMs'),
  };
}
