// The training loop outside the request path. Triggers (rating thresholds, item creation, the
// weekly retrain, POST tasks/<name>/) queue a task in Redis; every process polls the queue and
// runs what is due under the database's trainer lock, so one trainer per database runs across the
// deployment. A run keeps its task record current; a failed run keeps the previous model, is
// recorded FAILED with the reason and is queued again with exponential backoff. A run whose process
// died is found by the lock's next holder (its run marker outlives the lock's TTL) and failed and
// retried the same way; one that recd's stop interrupts is recorded FAILED and queued again at once.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DatabasesStore } from '../../store/databases-store.js';
import type { ModelsStore } from '../../store/models-store.js';
import type { TablesStore } from '../../store/tables-store.js';
import { REPLAY_TASK, type TaskRecord, type TasksStore } from '../../store/tasks-store.js';
import type { TrainingStore } from '../../store/training-store.js';
import type { RatingsLog } from '../../store/ratings-log.js';
import type { ModelRegistry } from '../model/registry.js';
import { buildTables, newItems } from './follow-up-jobs.js';
import { StoppedEarly } from './trainer.js';
import { RunOverTime, type TrainingPool } from './pool.js';
import type { AlsParams, ItemFeatures } from './tasks.js';
import type { SearchOptions } from './search.js';
import { HURRIED, retrain } from './retrain-job.js';
import { RunRecord } from './run-record.js';
import { waitsForWrites, type QuietPeriod } from './quiet-period.js';

export const TASK_NAMES = ['ml_model_retrain', 'ml_new_items', 'precomputed_tables'] as const;
export type TaskName = (typeof TASK_NAMES)[number];
// Every name a database's task records are filed under: what deleting a database lists.
export const RECORDED_TASKS = [...TASK_NAMES, REPLAY_TASK] as const;

export interface SchedulerOptions {
  pollMs: number;
  retrySeconds: number; // first retry delay, doubled after each further failure
  maxRetries: number;
  retrainIntervalSeconds: number; // feedback no model has seen for this long triggers a retrain
  lockTtlMs: number;
  runSeconds: number; // a database's training time quota: a run still going then stops, recorded FAILED
  runs: number; // runs of different databases one process makes side by side
  quiet: QuietPeriod; // automatic retrains wait for writes to settle
  params: AlsParams; // the defaults, until a search chooses a database's own
  search: SearchOptions & { intervalSeconds: number }; // seconds 0: no search
}

export interface SchedulerDeps {
  training: TrainingStore;
  log: RatingsLog; // the ratings written since the snapshot
  models: ModelsStore;
  tasks: TasksStore;
  databases: DatabasesStore;
  tables: TablesStore;
  registry: ModelRegistry;
  pool: TrainingPool;
  // The catalogue's item features (services/catalogue/catalogue-view.ts), for ml_new_items.
  itemFeatures: (db: string) => Promise<ItemFeatures>;
  logger: Logger;
}

// The run a trigger will be seen by: a new queued one, or the one already waiting (joined).
export type Triggered = { queued: boolean; taskId: string };

export type RunPhase = 'started' | 'completed' | 'failed' | 'interrupted';

// A delete still registered this long after it started was cut short (its process died or lost Redis):
// the trainers' sweep finishes it. A delete still under way that long gets a second worker, harmlessly.
const UNFINISHED_DELETE_MS = 60_000;

export class TrainingScheduler {
  private readonly token = randomUUID();
  private readonly feedback = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<void> | undefined;
  // This process's runs in progress, by database: runs of different databases go side by side,
  // sharing the training threads in turns (fair-share.ts), so a small database's first model does not
  // wait for a large one's run to end.
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;
  // Told of every run this process makes (metrics): its task, when it starts and how it ends, with
  // the seconds it took.
  onRun: ((task: TaskName, phase: RunPhase, seconds: number) => void) | undefined;

  constructor(
    private readonly d: SchedulerDeps,
    private readonly o: SchedulerOptions,
  ) {}

  start(): void {
    this.timers.push(setInterval(() => this.tick(), this.o.pollMs));
    this.timers.push(setInterval(() => void this.flushFeedback(), 1000));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.flushFeedback();
    await this.polling;
    await Promise.all(this.running.values());
  }

  // Queues a run unless one of that name is queued already, which it joins: either way the run
  // starts after this call, so it reads everything stored before it. A run in progress does not
  // stop a new one from being queued behind it. Automatic triggers update a waiting record's reason;
  // explicit requests (POST tasks/<name>/) keep it, and ask a run in progress to hurry: a retrain
  // then ends its users' lists early (users without one get it on their first request), so that
  // the run asked for starts minutes sooner at scale. Automatic triggers never hurry a run: feedback
  // keeps coming during a long run, and its lists would never finish. undefined only when the
  // waiting run's id could not be read three times in a row (each time a run took it just then).
  async trigger(db: string, name: TaskName, progress = 'waiting for a trainer', explicit = false): Promise<Triggered | undefined> {
    const triggered = await this.queue(db, name, progress, explicit);
    if (triggered && explicit && name === HURRIED) await this.d.training.hurry(db, name);
    return triggered;
  }

  private async queue(db: string, name: TaskName, progress: string, explicit: boolean): Promise<Triggered | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const task: TaskRecord = {
        task_id: randomUUID(),
        name,
        start_time: Date.now() / 1000,
        end_time: null,
        status: 'QUEUED',
        progress,
        error: null,
      };
      if (await this.d.training.markQueued(db, name, task.task_id)) {
        await this.d.tasks.put(db, task);
        // An automatic retrain is due once the writes that queued it may have settled (quiet-period.ts).
        await this.d.training.enqueue(db, name, Date.now() + (explicit || name !== HURRIED ? 0 : this.o.quiet.seconds * 1000));
        return { queued: true, taskId: task.task_id };
      }
      const taskId = await this.d.training.queuedId(db, name);
      if (taskId === undefined) continue; // a run took it between the two reads: queue a follow-up
      const waiting = await this.d.tasks.get(db, taskId);
      if (!explicit && waiting?.status === 'QUEUED') await this.d.tasks.put(db, { ...waiting, progress });
      if (explicit) await this.d.training.enqueue(db, name, Date.now()); // due now, if it waited for writes
      return { queued: false, taskId };
    }
    return undefined;
  }

  // Feedback arrived: remembered here, flushed to Redis about once a second (the weekly trigger).
  noteFeedback(db: string): void {
    this.feedback.add(db);
  }

  private async flushFeedback(): Promise<void> {
    if (this.feedback.size === 0) return;
    const dbs = [...this.feedback];
    this.feedback.clear();
    await this.d.training.noteFeedback(dbs, Date.now()).catch((err) => this.d.logger.warn({ err }, 'feedback marks not flushed'));
  }

  private tick(): void {
    if (this.polling || this.stopped) return;
    this.polling = this.runDue()
      .catch((err) => this.d.logger.error({ err }, 'training scheduler tick failed'))
      .finally(() => (this.polling = undefined));
  }

  private async runDue(): Promise<void> {
    const now = Date.now();
    await this.d.databases
      .finishDeletes(RECORDED_TASKS, now - UNFINISHED_DELETE_MS)
      .then((ids) => ids.length > 0 && this.d.logger.info({ databases: ids }, 'finished deletes cut short'))
      .catch((err) => this.d.logger.warn({ err }, 'deletes cut short not finished'));
    for (const db of await this.d.training.staleFeedback(now - this.o.retrainIntervalSeconds * 1000, 100)) {
      await this.trigger(db, 'ml_model_retrain', 'weekly retrain: feedback no model has seen');
    }
    for (const { db, name } of await this.d.training.due(now, 20)) {
      if (this.stopped || this.running.size >= this.o.runs) return;
      if (!(TASK_NAMES as readonly string[]).includes(name) || this.running.has(db)) continue;
      if (name === HURRIED && (await waitsForWrites(this.d.training, this.d.tasks, this.o.quiet, db, name, now))) continue;
      const run = this.run(db, name as TaskName)
        .catch((err) => this.d.logger.error({ err, db, task: name }, 'training run failed outside its record'))
        .finally(() => this.running.delete(db));
      this.running.set(db, run);
    }
  }

  private async run(db: string, name: TaskName): Promise<void> {
    const owner = `${this.token} ${name}`;
    if (!(await this.d.training.lock(db, owner, this.o.lockTtlMs))) return; // another process runs it; it stays queued
    await this.recoverAbandoned(db, owner).catch((err) => this.d.logger.error({ err, db }, 'abandoned run not recovered'));
    // The queue was read before the lock was taken: another process may have run and settled this entry
    // since. Running it again would repeat the task on whatever model this process still holds.
    const now = Date.now();
    const leased = await this.d.training
      .leaseIfDue(db, name, now, now + this.o.lockTtlMs)
      .catch((err) => void this.d.logger.warn({ err, db }, 'queue entry not leased'));
    if (!leased) return await this.d.training.unlock(db, owner);
    const renewal = setInterval(
      () => void this.d.training.renew(db, name, owner, this.o.lockTtlMs).catch(() => undefined),
      this.o.lockTtlMs / 3,
    );
    const rec = new RunRecord(this.d.tasks, db, this.d.logger);
    let failed = false;
    let interrupted = false;
    let notRetried = false;
    let held: boolean | undefined;
    const started = performance.now();
    try {
      const taskId = (await this.d.training.takeQueued(db, name)) ?? randomUUID();
      if (!(await this.d.databases.get(db))) return await this.d.training.forgetDatabase(db, TASK_NAMES);
      if (!(await this.d.training.beginRun(db, owner, taskId))) throw new Error('lost the trainer lock before starting');
      this.onRun?.(name, 'started', 0);
      await rec.begin({
        task_id: taskId,
        name,
        start_time: Date.now() / 1000,
        end_time: null,
        status: 'RUNNING',
        progress: 'starting',
        error: null,
      });
      const pool = this.d.pool.until(
        this.o.runSeconds * 1000,
        `stopped: the run passed the database's training time quota of ${this.o.runSeconds} s (RECD_QUOTA_TRAINING_SECONDS); it is not retried`,
      );
      const summary = await this.jobs[name](db, owner, rec.progress, pool);
      await rec.end({ ...rec.task!, status: 'COMPLETED', end_time: Date.now() / 1000, progress: summary });
      await this.d.training.succeeded(db, name);
    } catch (err) {
      // stop() ends the training pool under a run: its tasks fail, and the run is queued again whole.
      interrupted = this.stopped;
      // Over its time quota, a run would only pass it again; stopped early, the retrain asked for
      // meanwhile is queued already: neither is retried.
      notRetried = err instanceof RunOverTime || err instanceof StoppedEarly;
      const message = err instanceof Error ? err.message : String(err);
      const reason = interrupted ? `interrupted: recd stopped during the run (${message}); queued again` : message;
      this.d.logger.warn({ err, db, task: name }, interrupted ? 'background task interrupted by the stop' : 'background task failed');
      if (rec.task) await rec.end({ ...rec.task, status: 'FAILED', end_time: Date.now() / 1000, error: reason });
      failed = true;
    } finally {
      if (rec.task) this.onRun?.(name, interrupted ? 'interrupted' : failed ? 'failed' : 'completed', (performance.now() - started) / 1000);
      clearInterval(renewal);
      held = await this.d.training
        .settle(db, name, owner)
        .catch((err) => void this.d.logger.error({ err, db }, 'training queue not settled'));
      await this.d.training.unlock(db, owner).catch(() => undefined);
    }
    // Not held: the lock went to another trainer, which records this run as abandoned and retries it.
    if (!held || !failed || notRetried) return;
    const again = interrupted ? this.trigger(db, name, 'queued again: recd stopped during the last run') : this.retry(db, name);
    await again.catch((err) => this.d.logger.error({ err, db }, 'task retry not queued'));
  }

  // The run marker the lock's previous holder left: its process died (or stalled past the lock's
  // TTL) in the middle of a run. Its record says so, and it is retried as a failed run is.
  private async recoverAbandoned(db: string, owner: string): Promise<void> {
    const run = await this.d.training.takeAbandoned(db, owner);
    if (!run || !(TASK_NAMES as readonly string[]).includes(run.name)) return;
    const end_time = Date.now() / 1000;
    const error = `abandoned: the process running it stopped (its trainer lock went unrenewed for ${this.o.lockTtlMs / 1000} s)`;
    const task = (await this.d.tasks.get(db, run.taskId)) ?? {
      task_id: run.taskId,
      name: run.name,
      start_time: end_time,
      progress: 'starting',
    };
    await this.d.tasks.put(db, { ...task, status: 'FAILED', end_time, error });
    this.d.logger.warn({ db, task: run.name, taskId: run.taskId }, 'a run its process abandoned is recorded FAILED');
    if (await this.d.training.settle(db, run.name, owner)) await this.retry(db, run.name as TaskName);
  }

  private async retry(db: string, name: TaskName): Promise<void> {
    const failures = await this.d.training.failed(db, name);
    if (failures > this.o.maxRetries) return;
    const delay = this.o.retrySeconds * 2 ** (failures - 1);
    const task: TaskRecord = {
      task_id: randomUUID(),
      name,
      start_time: Date.now() / 1000,
      end_time: null,
      status: 'QUEUED',
      progress: `retry ${failures}/${this.o.maxRetries} after a failure, in ${delay} s`,
      error: null,
    };
    if (!(await this.d.training.markQueued(db, name, task.task_id))) return; // a trigger queued one already
    await this.d.tasks.put(db, task);
    await this.d.training.schedule(db, name, Date.now() + delay * 1000);
  }

  // pool: the training pool as this run may use it (refusing tasks past the run's time quota).
  private readonly jobs: Record<
    TaskName,
    (db: string, owner: string, progress: (text: string) => void, pool: TrainingPool) => Promise<string>
  > = {
    ml_model_retrain: (db, owner, progress, pool) =>
      retrain(this.d, this.o, db, owner, progress, pool, (db, name, why) => this.trigger(db, name, why)),
    ml_new_items: (db, owner, progress, pool) => newItems(this.d, db, owner, progress, pool, this.o.params.userListsSeconds),
    precomputed_tables: (db, _owner, progress, pool) => buildTables(this.d, db, progress, pool),
  };
}
