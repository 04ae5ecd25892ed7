// A run's task record as it goes (GET tasks/…/recents/ shows it), and its lines in the log. The lists'
// blocks report progress many times a second, so the record is written at most once a second (the
// latest text; a phase that reports less often is written as it reports). The phase a run enters
// (phaseOf its progress text) is logged at info, as are its start and its end.
import type { Logger } from 'pino';
import type { TaskRecord, TasksStore } from '../../store/tasks-store.js';

const WRITE_EVERY_MS = 1000;

// A progress text's phase: the text before its first count, but a round's number is the phase's
// own, as rounds of one pass take their own time and the log tells how many ran.
export const phaseOf = (text: string): string =>
  /^[^\d(]*round \d+/.exec(text)?.[0] ?? text.replace(/[\d(].*$/s, '').replace(/[\s:,]+$/, '');

export class RunRecord {
  task: TaskRecord | undefined;
  private writes = Promise.resolve();
  private lastWrite = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private phase = '';
  private readonly started = performance.now();

  constructor(
    private readonly tasks: TasksStore,
    private readonly db: string,
    private readonly logger: Logger,
  ) {}

  // The run began as `t` (RUNNING).
  begin(t: TaskRecord): Promise<void> {
    this.logger.info({ db: this.db, task: t.name, taskId: t.task_id }, 'training run started');
    return this.write(t);
  }

  readonly progress = (text: string): void => {
    if (this.task?.status !== 'RUNNING') return;
    this.task = { ...this.task, progress: text };
    const phase = phaseOf(text);
    if (phase !== this.phase) {
      this.phase = phase;
      this.logger.info({ db: this.db, task: this.task.name, phase, seconds: this.seconds() }, 'training phase');
    }
    const wait = this.lastWrite + WRITE_EVERY_MS - performance.now();
    if (wait <= 0) void this.write(this.task);
    else
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        if (this.task?.status === 'RUNNING') void this.write(this.task);
      }, wait);
  };

  // The run ended as `t` (COMPLETED or FAILED): written after every write before it.
  end(t: TaskRecord): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (t.status === 'COMPLETED')
      this.logger.info(
        { db: this.db, task: t.name, taskId: t.task_id, seconds: this.seconds(), summary: t.progress },
        'training run completed',
      );
    return this.write(t);
  }

  private seconds(): number {
    return Math.round(performance.now() - this.started) / 1000;
  }

  private write(t: TaskRecord): Promise<void> {
    this.task = t;
    this.lastWrite = performance.now();
    this.writes = this.writes
      .then(() => this.tasks.put(this.db, t))
      .catch((err) => this.logger.warn({ err, db: this.db }, 'task record not written'));
    return this.writes;
  }
}
