// Background task records (`GET tasks/<name>/recents/`), shared with the engine.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

// QUEUED: requested (a retrain trigger fired) and waiting for a trainer to take it.
export type TaskStatus = 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';

export interface TaskRecord {
  task_id: string;
  name: string;
  start_time: number; // seconds since the epoch
  end_time: number | null;
  status: TaskStatus;
  progress: string;
  error: string | null;
}

const KEEP_PER_NAME = 100;
// The task a serving process runs itself (services/outcomes/replay.ts), beside training's (engine/training/scheduler.ts TASK_NAMES).
export const REPLAY_TASK = 'analytics_replay';

export class TasksStore {
  constructor(private readonly redis: Connection) {}

  async put(db: string, task: TaskRecord): Promise<void> {
    const byName = keys.tasksByName(db, task.name);
    const tx = this.redis
      .multi()
      .set(keys.task(db, task.task_id), pack(task))
      .zadd(byName, Math.round(task.start_time * 1000), task.task_id);
    await tx.exec();
    await this.trim(db, task.name);
  }

  async get(db: string, id: string): Promise<TaskRecord | undefined> {
    return unpack<TaskRecord>(await this.redis.getBuffer(keys.task(db, id)));
  }

  // Newest first, skipping `offset` records.
  async recent(db: string, name: string, offset: number, amt: number): Promise<TaskRecord[]> {
    const ids = await this.redis.zrevrange(keys.tasksByName(db, name), offset, offset + amt - 1);
    if (ids.length === 0) return [];
    const blobs = await this.redis.mgetBuffer(...ids.map((id) => keys.task(db, id)));
    return blobs.map((b) => unpack<TaskRecord>(b)).filter((t): t is TaskRecord => t !== undefined);
  }

  private async trim(db: string, name: string): Promise<void> {
    const byName = keys.tasksByName(db, name);
    const old = await this.redis.zrange(byName, '0', String(-(KEEP_PER_NAME + 1)));
    if (old.length === 0) return;
    await this.redis
      .multi()
      .zrem(byName, ...old)
      .del(...old.map((id) => keys.task(db, id)))
      .exec();
  }
}
