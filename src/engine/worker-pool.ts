// The worker threads training and scoring run on: a Piscina pool whose threads come when tasks do and
// go once idle, and which takes no task once closed. piscina's destroy alone leaves its pool usable
// (a later run starts threads again), so a task asked for after recd's stop (a training still taking
// blocks, a ranking) would keep a thread, and the process, alive after the stop.
import { Piscina } from 'piscina';

export class WorkerPool {
  private readonly pool: Piscina;
  private closed = false;

  // what: named in the refusal after the close ('training', 'scoring').
  constructor(
    private readonly what: string,
    filename: URL,
    threads: number,
    idleTimeoutMs: number,
    // Given to each thread as piscina's workerData (the training threads' nice value).
    workerData?: unknown,
  ) {
    this.pool = new Piscina({ filename: filename.href, minThreads: 0, maxThreads: threads, idleTimeout: idleTimeoutMs, workerData });
  }

  run<T>(input: unknown, name: string): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`the ${this.what} pool is closed`));
    return this.pool.run(input, { name });
  }

  close(): Promise<void> {
    this.closed = true;
    return this.pool.destroy();
  }
}
