// Automatic retrains wait for writes to settle. A retrain queued when the ratings crossed a threshold
// started at once, mid-upload, on part of the data: a ~0.4M-rating upload then waited ~36 s for that
// run before the one that saw it all (issue 42). So a queued automatic retrain is due only once the
// database has had no feedback written for `seconds`, and at the latest `maxSeconds` after it was
// queued (writes that never pause still get a model). A retrain asked for explicitly does not wait.
import type { TasksStore } from '../../store/tasks-store.js';
import type { TrainingStore } from '../../store/training-store.js';

export interface QuietPeriod {
  seconds: number;
  maxSeconds: number;
}

const WAITING = 'waiting for writes to settle';

// Whether the database's queued retrain waits for its writes to settle: then it is due again once
// they have been quiet long enough, and its record says why it waits.
export async function waitsForWrites(
  training: TrainingStore,
  tasks: TasksStore,
  q: QuietPeriod,
  db: string,
  name: string,
  now: number,
): Promise<boolean> {
  if (q.seconds === 0) return false;
  const last = await training.lastFeedback(db);
  if (last === undefined || now - last >= q.seconds * 1000) return false;
  if (await training.hurried(db, name)) return false; // asked for explicitly
  const id = await training.queuedId(db, name);
  const queued = id === undefined ? undefined : await tasks.get(db, id);
  if (queued?.status !== 'QUEUED' || now - queued.start_time * 1000 >= q.maxSeconds * 1000) return false;
  const until = Math.min(last + q.seconds * 1000, queued.start_time * 1000 + q.maxSeconds * 1000);
  await training.postpone(db, name, until);
  if (!queued.progress.startsWith(WAITING))
    await tasks.put(db, {
      ...queued,
      progress: `${WAITING} (${q.seconds} s without writes, at most ${q.maxSeconds} s): ${queued.progress}`,
    });
  return true;
}
