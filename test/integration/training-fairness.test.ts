// Training is fair between databases (issue 42): while a large database's run builds its lists on
// the only training thread, a small database's first model comes during that run, not after it
// (engine/training/fair-share.ts: runs side by side, the threads to the run that has had the least
// time). Each run's record moves at least once a second while it works, and its log tells the phases.
import t from 'tap';
import { rootToken } from '../helpers/fixtures.js';
import { RECO_ENV, statusOf, until, type TaskRow } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import { freshDatabase } from '../helpers/feedback.js';

const LARGE_USERS = 60_000;
const LARGE_ITEMS = 10_000;
const PER_USER = 5;

const stack = await startStack({
  ...RECO_ENV,
  RECD_TRAINING_THREADS: '1',
  RECD_ALS_ITERATIONS: '1',
  RECD_TRAINING_POLL_MS: '100',
  LOG_LEVEL: process.env.DBG_LOG ?? 'silent',
});
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const task = async (token: string, id: string): Promise<TaskRow & { start_time: number; end_time: number | null }> => {
  const r = await api.get('tasks/ml_model_retrain/recents/', { token, query: 'amt=50' });
  return r.body.tasks.find((x: TaskRow) => x.task_id === id);
};

t.test("a small database's first model comes while a large one's run is in progress", async (t) => {
  const large = await freshDatabase(api, root, { user_id_type: 'uint32' });
  for (let u0 = 1; u0 <= LARGE_USERS; u0 += 10_000) {
    const ratings = [];
    for (let u = u0; u < u0 + 10_000; u++)
      for (let k = 0; k < PER_USER; k++)
        ratings.push({ user_id: u, item_id: 1 + ((u * 7919 + k * 104_729) % LARGE_ITEMS), rating: 1 + ((u + k) % 10) });
    t.equal((await api.put('ratings-bulk/', { ratings }, { token: large.token })).status, 200);
  }
  // Asked for after the upload, this run trains on all of it (a run under way on part of it is
  // hurried: its users' lists end early).
  const asked = await api.post('tasks/ml_model_retrain/', {}, { token: large.token });
  t.equal(asked.status, 200);
  const largeRun = asked.body.task_id as string;
  await until(
    'the large run under way',
    () => task(large.token, largeRun),
    (x) => x?.status === 'RUNNING',
    120_000,
  );

  const small = await freshDatabase(api, root, { user_id_type: 'uint32' });
  // 50 users × 20 items, 1,000 distinct ratings: past the first threshold (500), a retrain is queued.
  const ratings = Array.from({ length: 1000 }, (_, k) => ({
    user_id: 1 + Math.floor(k / 20),
    item_id: 1 + ((k * 7) % 20) + 20 * (k % 3),
    rating: 1 + (k % 10),
  }));
  t.equal((await api.put('ratings-bulk/', { ratings }, { token: small.token })).status, 200);
  // The large run's record, read every 100 ms from here to its end: when its progress text changed.
  const changes: { at: number; progress: string }[] = [];
  const watch = (async () => {
    for (;;) {
      const x = await task(large.token, largeRun);
      if (x.status !== 'RUNNING') return x;
      if (changes.at(-1)?.progress !== x.progress) changes.push({ at: Date.now(), progress: x.progress ?? '' });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await until(
    'the small database ready',
    () => statusOf(api, small.token),
    (s) => s === 'ready',
    120_000,
  );
  const readyAt = Date.now() / 1000;
  const l = await task(large.token, largeRun);
  t.ok(
    l.status === 'RUNNING' || (l.end_time !== null && l.end_time > readyAt),
    `the large run was still in progress when the small model came (${l.status}, ${l.progress})`,
  );
  const end = await watch;
  t.equal(end.status, 'COMPLETED', end.progress ?? '');
  const gaps = changes.slice(1).map((c, k) => c.at - changes[k]!.at);
  t.ok(changes.length >= 3, `the large run's progress moved: ${changes.map((c) => c.progress).join(' | ')}`);
  t.ok(Math.max(...gaps, Date.now() - changes.at(-1)!.at) <= 5000, `never 5 s without a change: gaps ${gaps.join(', ')} ms`);
});
