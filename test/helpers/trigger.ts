// POST tasks/<name>/ for tests that ask for a run after writes that queue runs themselves (ratings
// reaching 500 · 2^k, item creation, table definitions): waits those runs out first instead of racing them.
import type { Connection } from '../../src/store/redis.js';
import { keys } from '../../src/store/keys.js';
import type { Api, Res } from './api.js';
import { settled, tasksOf, until } from './reco.js';

// The server refuses a run of a name while one is queued or running (TASK_ALREADY_RUNNING). "Running"
// outlasts the task record: a run writes COMPLETED or FAILED, then does its last bookkeeping and only
// then releases the trainer lock. So besides the records, this reads what the server's refusal reads
// (src/engine/training/scheduler.ts, trigger): the queued marker and the lock holder; nothing is retried.
export async function runsOver(api: Api, redis: Connection, db: string, token: string, name: string, ms = 120_000): Promise<void> {
  await until(
    `every ${name} run over (records ended, trainer released)`,
    async () => ({
      tasks: await tasksOf(api, token, name),
      queued: await redis.get(keys.queuedTask(db, name)),
      trainer: await redis.get(keys.trainerLock(db)),
    }),
    // The lock reads "<process token> <task name> <task id>"; another task's run does not refuse this one.
    (v) => settled(v.tasks) && v.queued === null && v.trainer?.split(' ')[1] !== name,
    ms,
  );
}

// The answer of POST tasks/<name>/, sent once every run already queued or running is over; callers
// check the status, so a refusal still fails the test.
export async function triggerAfterRuns(api: Api, redis: Connection, db: string, token: string, name: string): Promise<Res> {
  await runsOver(api, redis, db, token, name);
  return api.post(`tasks/${name}/`, undefined, { token });
}
