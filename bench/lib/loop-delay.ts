// The event-loop delay of a recd under load (loop-delay-preload.ts runs inside it): launch options
// that load the preload, and one reading per load run.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Managed } from './processes.js';
import { sleep } from './processes.js';

const PRELOAD = resolve(dirname(fileURLToPath(import.meta.url)), 'loop-delay-preload.js');

export interface LoopDelay {
  p50: number; // ms the 1 ms timer fired late (its interval less 1 ms), median
  p99: number;
  max: number;
  scavenges: number; // minor collections during the reading
  scavengeMs: number; // their total pause
  majors: number; // mark-compact collections (and their incremental steps)
  majorMs: number;
}

// Node arguments and environment that make a recd process keep the histogram in `file`.
export function loopDelayLaunch(nodeArgs: string[], dir: string, name: string): { nodeArgs: string[]; env: Record<string, string>; file: string } {
  const file = join(dir, `loop-delay-${name}.jsonl`);
  return { nodeArgs: [...nodeArgs, '--import', PRELOAD], env: { BENCH_LOOP_DELAY_FILE: file }, file };
}

// Starts a reading (the histogram since the last one is dropped).
export function loopDelayStart(recd: Managed): void {
  recd.child.kill('SIGUSR2');
}

// The histogram since loopDelayStart; undefined when the process wrote none.
export async function loopDelayRead(recd: Managed, file: string): Promise<LoopDelay | undefined> {
  const before = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  recd.child.kill('SIGUSR2');
  for (let k = 0; k < 40; k++) {
    await sleep(25);
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.length > before) return JSON.parse(lines[lines.length - 1]!) as LoopDelay;
  }
  return undefined;
}
