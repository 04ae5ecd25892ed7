// How much of one event-loop turn anonymous sessions' requests may take. uWebSockets.js hands the
// handlers every request ready on every socket in one poll phase, so without a bound 64 sessions ran
// back to back and held timers and every other socket for 7–8 ms (bench/http/reco.ts, random sessions). A session runs
// at once while the turn is younger than the budget; past it, the whole request waits for a later
// turn (setImmediate: after this poll phase, before the next one's timers are late by more than the
// budget), first in first out, each later turn draining under the budget afresh; work that has
// waited longer than maxWaitMs runs on the next turn whatever the budget (see MAX_WAIT_MS). The
// whole request waits, not only its ranking: a request waiting after its decode, profile, fold-in
// and plan held all of them through the scavenges of its wait, and that work ran outside the
// budget: the loop's lateness p99 went from 3.7 to 2.3 ms under wrk when whole requests waited.
import { performance } from 'node:perf_hooks';

// How long work may wait before the budget stops holding it back. Requests other than sessions never
// ask the budget, so without a bound they take every poll phase at full speed while waiting work gets
// one budget a turn: when filtered item pages waited too, those whose first request for an item
// needs a deeper ranking (~0.9 ms, a fifth of them) queued until nearly every one of 64 connections
// waited on them, for a p99 of 45 ms (bench/http/reco.ts, filtered items). Random sessions at 64 connections wait
// about 5 ms, under this.
export const MAX_WAIT_MS = 8;

interface Waiting {
  since: number; // when it began to wait (ms)
  work: () => unknown;
  resolve: (v: unknown) => void;
  reject: (err: unknown) => void;
}

export class TurnBudget {
  // When the current turn's first budgeted work asked (ms); undefined between turns.
  private started: number | undefined;
  private readonly waiting: Waiting[] = [];
  private next = false; // nextTurn is scheduled

  constructor(
    private readonly budgetMs: number,
    // The clock (tests give their own).
    private readonly now: () => number = () => performance.now(),
    private readonly maxWaitMs = MAX_WAIT_MS,
  ) {}

  // Whether work may run now: the turn is younger than the budget and no work waits (which it would
  // overtake). The first ask of a turn starts it, so the time counted is the turn's own work, never
  // the idle wait before it.
  mayRun(): boolean {
    if (this.waiting.length > 0) return false;
    const t = this.now();
    if (this.started === undefined) {
      this.started = t;
      this.schedule();
    }
    return t - this.started < this.budgetMs;
  }

  // work() now when it may run (mayRun), else on a later turn (later).
  run<T>(work: () => T | Promise<T>): T | Promise<T> {
    return this.mayRun() ? work() : this.later(work);
  }

  // work() on a later turn, after all the work that waited before it; its value or its error.
  later<T>(work: () => T | PromiseLike<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ since: this.now(), work, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.next) return;
    this.next = true;
    setImmediate(this.nextTurn);
  }

  // The turn that asked is over; waiting work runs now under a fresh budget (at least one piece each
  // turn, so a budget of 0 still makes progress), and past it while the oldest work not yet started
  // has waited longer than maxWaitMs; the rest on the turns after.
  private readonly nextTurn = (): void => {
    this.next = false;
    const started = this.now();
    let k = 0;
    for (let t = started; k < this.waiting.length && (k === 0 || t - started < this.budgetMs || this.overdue(k, t)); t = this.now()) {
      const w = this.waiting[k++]!;
      try {
        w.resolve(w.work());
      } catch (err) {
        w.reject(err);
      }
    }
    this.waiting.splice(0, k);
    this.started = undefined;
    if (this.waiting.length > 0) this.schedule();
  };

  // Whether the work at position k, the oldest not yet run, has waited too long.
  private overdue(k: number, t: number): boolean {
    return t - this.waiting[k]!.since > this.maxWaitMs;
  }
}
