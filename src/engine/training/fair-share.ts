// The training threads shared between runs. Runs of different databases go on side by side
// (training/scheduler.ts), and piscina's own queue is first come first served: a large run that
// queued its blocks first held every thread until they were done, and a small database's first
// model waited behind a large one's item lists for minutes (issue 42). Here at most `slots` tasks
// (one per thread) are given to the threads at a time, and a free thread goes to the waiting run that
// has had the least thread time so far: a small run's next task goes before a large run's, so it waits
// only for the tasks already running (the passes are cut into short tasks: lists.ts, fit.ts), and
// large runs side by side share the threads about evenly.
export class FairShare {
  private running = 0;
  // Waiting tasks by run, first in first out; a run is here while it has one waiting.
  private readonly waiting = new Map<object, (() => void)[]>();
  // The thread time each run's tasks have had (ms), for as long as the run (its pool view) lives.
  private readonly spent = new WeakMap<object, number>();

  constructor(private readonly slots: number) {}

  // task() once a thread is free and `run`'s turn has come; its result.
  run<T>(run: object, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        const started = performance.now();
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.spent.set(run, (this.spent.get(run) ?? 0) + performance.now() - started);
            this.next();
          });
      };
      const queue = this.waiting.get(run);
      if (queue) queue.push(start);
      else this.waiting.set(run, [start]);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.slots && this.waiting.size > 0) {
      let pick: object | undefined;
      for (const run of this.waiting.keys()) if (pick === undefined || (this.spent.get(run) ?? 0) < (this.spent.get(pick) ?? 0)) pick = run;
      const queue = this.waiting.get(pick!)!;
      const start = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(pick!);
      start();
    }
  }
}
