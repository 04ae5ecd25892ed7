// A worker thread's CPU priority (its nice value). On Linux the nice value belongs to each thread, and
// setpriority(PRIO_PROCESS, tid) sets one thread's: the training threads lower their own at start so
// the event loop and the scoring threads, at the process's priority, take the cores first
// (bench/http/learning.ts measures serving during a retrain). Elsewhere nothing changes.
import { readlinkSync } from 'node:fs';
import os from 'node:os';

// This thread's id, from /proc/thread-self (a link to <pid>/task/<tid>); undefined off Linux.
function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

// Sets the calling thread's nice value (0–19: raising it needs no privilege); whether it could.
export function niceThisThread(nice: number): boolean {
  const tid = threadId();
  if (tid === undefined) return false;
  try {
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
