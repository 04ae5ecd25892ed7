// Automatic training (engine): crossing 500 ratings queues ml_model_retrain, a trainer runs it
// (QUEUED → RUNNING → COMPLETED / FAILED), the model is published (status ready, pretrained-ml/
// trained-models/), the other process of a pair loads it; POST tasks/<name>/ queues a task by hand
// (duplicates, unknown names, roles); a run without ratings fails, keeps the previous model serving and
// is retried; ml_new_items extends the serving model with the items created since.
// Two recd processes on one Redis, real HTTP. Every wait is a deadline poll, never a fixed sleep.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Api } from '../helpers/api.js';
import { freshDatabase, INCORRECT_ROLE, range, ratingCount, uid, why } from '../helpers/feedback.js';
import { errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startPair } from '../helpers/stack.js';
import { runsOver, triggerAfterRuns } from '../helpers/trigger.js';
import { keys } from '../../src/store/keys.js';
import { TrainingStore } from '../../src/store/training-store.js';

// A subtest's `t` (the callback parameter of the last t.test overload).
type Tt = Parameters<Parameters<typeof t.test>[0]>[0];

const ITERATIONS = 4;
const FACTORS = 8;
const pair = await startPair({
  RECD_ALS_FACTORS: String(FACTORS),
  RECD_ALS_ITERATIONS: String(ITERATIONS),
  RECD_SEARCH_SECONDS: '0', // models of the configured parameters (training-search.test.ts covers the search)
  RECD_TRAINING_POLL_MS: '200',
  RECD_TRAINING_RETRY_SECONDS: '1',
  RECD_TRAINING_THREADS: '2',
});
t.teardown(() => pair.close());
const { a, b } = pair;
const root = await rootToken(a.api);

const TASK_NOT_FOUND = { status: 404, code: 60, errorName: 'NotFoundError', name: 'TASK_NOT_FOUND' };

interface Task {
  task_id: string;
  name: string;
  start_time: number;
  end_time: number | null;
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  progress: string;
  error: string | null;
}
interface Model {
  model_id: string;
  timestamp: number;
  algorithm: string;
  n_users: number;
  n_items: number;
  n_ratings: number;
  factors: number;
  bytes: number;
  metrics: { loss: number; training_seconds: number };
  serving: boolean;
  loaded: boolean;
}

// ---- polling -------------------------------------------------------------------------------------

const POLL_MS = 200;
const DEADLINE_MS = 60_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Reads until ok(value) holds, every 200 ms, for at most `ms`; throws with the last value otherwise.
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = DEADLINE_MS): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() >= end) throw new Error(`${what}: not reached within ${ms} ms; last read: ${JSON.stringify(v).slice(0, 1500)}`);
    await pause(POLL_MS);
  }
}

// Reads every 200 ms for `ms` and returns the first value for which ok() is false (undefined: it held
// throughout). For "nothing happens" checks, which need a window to look through.
async function holds<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (!ok(v)) return v;
    if (Date.now() >= end) return undefined;
    await pause(POLL_MS);
  }
}

// ---- HTTP reads ------------------------------------------------------------------------------------

async function tasksOf(api: Api, token: string, name: string): Promise<Task[]> {
  const r = await api.get(`tasks/${name}/recents/`, { token, query: 'amt=500' });
  if (r.status !== 200) throw new Error(`tasks/${name}/recents/: ${r.status} ${r.text}`);
  return r.body.tasks;
}
const retrains = (api: Api, token: string) => tasksOf(api, token, 'ml_model_retrain');

async function statusOf(api: Api, token: string): Promise<string> {
  const r = await api.get('databases/current/status/', { token });
  if (r.status !== 200) throw new Error(`status: ${r.status} ${r.text}`);
  return r.body.status;
}

async function modelsOf(api: Api, token: string): Promise<Model[]> {
  const r = await api.get('pretrained-ml/trained-models/', { token });
  if (r.status !== 200) throw new Error(`trained-models: ${r.status} ${r.text}`);
  if (!Array.isArray(r.body.models) || !Array.isArray(r.body.warnings)) throw new Error(`trained-models: unexpected body ${r.text}`);
  return r.body.models;
}

const DONE = new Set(['COMPLETED', 'FAILED']);
const isDone = (x: Task | undefined) => x !== undefined && DONE.has(x.status);

// Waits for one task (by id) to reach COMPLETED or FAILED, noting every RUNNING progress seen on the way.
async function finished(api: Api, token: string, name: string, id: string): Promise<{ task: Task; running: string[] }> {
  const running: string[] = [];
  const all = await until(
    `task ${name} ${id} finished`,
    () => tasksOf(api, token, name),
    (ts) => {
      const x = ts.find((y) => y.task_id === id);
      if (x?.status === 'RUNNING') running.push(x.progress);
      return isDone(x);
    },
  );
  return { task: all.find((y) => y.task_id === id)!, running };
}

// POST tasks/<name>/ (no body): 200 {task_id, warnings: []}; returns the task id. Sent once the runs
// queued before (by the uploads, or an earlier request) are over, so it never races them.
async function trigger(t: Tt, api: Api, token: string, db: string, name: string): Promise<string> {
  const r = await triggerAfterRuns(api, a.redis, db, token, name);
  t.equal(r.status, 200, `POST tasks/${name}/: ${why(r, 200)}`);
  t.type(r.body?.task_id, 'string', 'task_id');
  t.strictSame(r.body?.warnings, [], 'no warnings');
  return r.body?.task_id;
}

// "model <model_id>: <n> users, <m> items, <r> ratings" of a COMPLETED ml_model_retrain record.
const PROGRESS = /^model (\S+): (\d+) users, (\d+) items, (\d+) ratings/;
function modelOfProgress(progress: string): { model_id: string; n_users: number; n_items: number; n_ratings: number } | undefined {
  const m = PROGRESS.exec(progress);
  return m ? { model_id: m[1]!, n_users: Number(m[2]), n_items: Number(m[3]), n_ratings: Number(m[4]) } : undefined;
}

// ---- data ------------------------------------------------------------------------------------------

const N_USERS = 60;
const N_ITEMS = 40;
const PER_USER = 10;
// 60 users × 10 distinct items each out of items 1..40 (every item is rated by someone), ratings 1..10.
function ratingRows(): { user_id: string; item_id: number; rating: number; timestamp: number }[] {
  const rows = [];
  for (let u = 0; u < N_USERS; u++) {
    for (let j = 0; j < PER_USER; j++) {
      rows.push({
        user_id: uid(u),
        item_id: ((u + 4 * j) % N_ITEMS) + 1,
        rating: ((u * 3 + j * 7) % 10) + 1,
        timestamp: 1_700_000_000 + u * 100 + j,
      });
    }
  }
  return rows;
}
const RATINGS = ratingRows();

async function putRatings(t: Tt, api: Api, token: string, rows: unknown[]): Promise<void> {
  const r = await api.put('ratings-bulk/', { ratings: rows }, { token });
  t.equal(r.status, 200, `PUT ratings-bulk/ (${rows.length}): ${why(r, 200)}`);
}

// A fresh database (uint32 items, uuid users) with a backend token; B is asked for its status first, so
// B has served it recently and loads the models announced for it.
async function fresh(): Promise<{ db: string; token: string }> {
  const d = await freshDatabase(a.api, root);
  await statusOf(b.api, d.token);
  return d;
}

// A database holding the 600 ratings and the model trained from them (the automatic task COMPLETED).
async function trained(t: Tt): Promise<{ db: string; token: string; model: Model }> {
  const d = await fresh();
  await putRatings(t, a.api, d.token, RATINGS);
  const queued = await retrains(a.api, d.token);
  if (queued.length !== 1) throw new Error(`expected one ml_model_retrain task after 600 ratings, got ${JSON.stringify(queued)}`);
  const { task } = await finished(a.api, d.token, 'ml_model_retrain', queued[0]!.task_id);
  if (task.status !== 'COMPLETED') throw new Error(`the automatic training did not complete: ${JSON.stringify(task)}`);
  const models = await modelsOf(a.api, d.token);
  if (models.length !== 1) throw new Error(`expected one model, got ${JSON.stringify(models)}`);
  return { ...d, model: models[0]! };
}

function checkModelShape(t: Tt, m: Model, what: string): void {
  t.type(m.model_id, 'string', `${what}: model_id is a string`);
  t.ok(m.model_id.length > 0, `${what}: model_id not empty`);
  t.type(m.timestamp, 'number', `${what}: timestamp`);
  t.ok(Math.abs(m.timestamp - Date.now() / 1000) < 300, `${what}: timestamp ${m.timestamp} is now, in seconds`);
  for (const f of ['n_users', 'n_items', 'n_ratings', 'factors', 'bytes'] as const)
    t.ok(Number.isInteger(m[f]), `${what}: ${f} is an integer (${m[f]})`);
  t.ok(m.bytes > 0, `${what}: bytes > 0`);
  t.type(m.metrics?.loss, 'number', `${what}: metrics.loss`);
  t.ok(Number.isFinite(m.metrics?.loss), `${what}: metrics.loss is finite`);
  t.type(m.metrics?.training_seconds, 'number', `${what}: metrics.training_seconds`);
  t.ok(m.metrics?.training_seconds >= 0, `${what}: metrics.training_seconds >= 0`);
  t.type(m.serving, 'boolean', `${what}: serving`);
  t.type(m.loaded, 'boolean', `${what}: loaded`);
}

// ---- tests -----------------------------------------------------------------------------------------

t.test('600 ratings through A: ml_model_retrain runs to COMPLETED, B turns ready and lists the model, loaded', async (t) => {
  const { token } = await fresh();
  t.equal(await statusOf(b.api, token), 'pending', 'pending before any model');
  t.strictSame(await modelsOf(b.api, token), [], 'no model listed yet');

  await putRatings(t, a.api, token, RATINGS);
  const queued = await retrains(a.api, token);
  t.equal(queued.length, 1, 'crossing 500 queued one ml_model_retrain task');
  const id = queued[0]!.task_id;
  t.ok(['QUEUED', 'RUNNING', 'COMPLETED'].includes(queued[0]!.status), `status ${queued[0]!.status}`);

  const { task, running } = await finished(a.api, token, 'ml_model_retrain', id);
  t.equal(task.status, 'COMPLETED', `the task completed (error: ${task.error})`);
  t.equal(task.error, null, 'no error');
  t.type(task.end_time, 'number', 'end_time set');
  t.ok(task.end_time! >= task.start_time, 'end_time >= start_time');
  for (const p of running.filter((p) => /iteration/.test(p)))
    t.match(p, new RegExp(`iteration \\d+/${ITERATIONS}\\b`), `RUNNING progress ${JSON.stringify(p)}`);
  const named = modelOfProgress(task.progress);
  t.ok(named, `progress names the model: ${JSON.stringify(task.progress)}`);
  t.strictSame(
    named && { n_users: named.n_users, n_items: named.n_items, n_ratings: named.n_ratings },
    { n_users: N_USERS, n_items: N_ITEMS, n_ratings: RATINGS.length },
    'progress counts',
  );

  t.equal(
    await until(
      'B status ready',
      () => statusOf(b.api, token),
      (s) => s === 'ready',
    ),
    'ready',
    'B answers ready',
  );

  const onB = await until(
    'B lists the model loaded',
    () => modelsOf(b.api, token),
    (ms) => ms.length === 1 && ms[0]!.loaded === true,
  );
  t.equal(onB.length, 1, 'exactly one model');
  const m = onB[0]!;
  checkModelShape(t, m, 'B');
  t.equal(m.model_id, named?.model_id, 'the model the task named');
  t.equal(m.algorithm, 'als');
  t.equal(m.n_users, N_USERS);
  t.equal(m.n_items, N_ITEMS, 'every item was rated');
  t.equal(m.n_ratings, RATINGS.length);
  t.equal(m.factors, FACTORS);
  t.equal(m.serving, true, 'serving');
  t.equal(m.loaded, true, 'B holds it in memory');

  const onA = await modelsOf(a.api, token);
  t.equal(onA.length, 1, 'A lists one model');
  t.equal(onA[0]?.model_id, m.model_id, 'A lists the same model');
  t.equal(onA[0]?.serving, true, 'serving on A too');
  t.equal(await statusOf(a.api, token), 'ready', 'A answers ready');

  const r = await b.api.get('pretrained-ml/trained-models/', { token });
  t.strictSame(r.body.warnings, [], 'trained-models warnings');
});

t.test('below 500 ratings nothing is queued and the database stays pending', async (t) => {
  const { token } = await fresh();
  await putRatings(t, a.api, token, RATINGS.slice(0, 499));
  t.strictSame(await retrains(a.api, token), [], 'no ml_model_retrain record at 499 ratings');
  // Look for a while (several trainer polls): still nothing.
  const broke = await holds(
    async () => ({ tasks: await retrains(a.api, token), status: await statusOf(b.api, token), models: await modelsOf(b.api, token) }),
    (v) => v.tasks.length === 0 && v.status === 'pending' && v.models.length === 0,
    1500,
  );
  t.equal(broke, undefined, `nothing happened: ${JSON.stringify(broke)}`);
  t.equal(await statusOf(a.api, token), 'pending');
});

t.test('POST tasks/ml_model_retrain/ while a run holds the trainer queues a follow-up; while one is queued it joins it', async (t) => {
  const { db, token, model: first } = await trained(t);
  await runsOver(a.api, a.redis, db, token, 'ml_model_retrain');
  // The trainer lock as a running retrain holds it (another process's, in the middle of its run): no
  // run can start until it goes, so what the POSTs answer is not a race with the trainers.
  t.equal(await a.redis.set(keys.trainerLock(db), 'elsewhere ml_model_retrain', 'PX', 60_000, 'NX'), 'OK', 'the trainer lock is held');
  const post = () => a.api.post('tasks/ml_model_retrain/', undefined, { token });
  const r1 = await post();
  t.equal(r1.status, 200, `while a run holds the trainer: a follow-up is queued (${why(r1, 200)})`);
  const id = r1.body?.task_id as string;
  t.type(id, 'string');
  t.strictSame(r1.body?.warnings, []);
  const r2 = await post();
  t.equal(r2.status, 200, `while one is queued: ${why(r2, 200)}`);
  t.equal(r2.body?.task_id, id, 'joins the queued run: the same task id');
  const r3 = await b.api.post('tasks/ml_model_retrain/', undefined, { token });
  t.equal(r3.body?.task_id, id, 'through the other process too');
  const queued = (await retrains(a.api, token)).find((x) => x.task_id === id);
  t.equal(queued?.status, 'QUEUED', 'listed as QUEUED under its id');
  t.equal(queued?.progress, 'requested: waiting for a trainer');
  // Ratings stored while it waits are in the model it makes.
  await putRatings(t, a.api, token, [{ user_id: uid(12_345), item_id: 1, rating: 7, timestamp: 1_700_000_000 }]);
  await a.redis.del(keys.trainerLock(db));

  const { task } = await finished(a.api, token, 'ml_model_retrain', id);
  t.equal(task.status, 'COMPLETED', `completed (error: ${task.error})`);
  const second = modelOfProgress(task.progress);
  t.ok(second, `progress names the model: ${JSON.stringify(task.progress)}`);
  t.not(second?.model_id, first.model_id, 'a new model');
  t.equal(second?.n_ratings, first.n_ratings + 1, 'with the rating stored while it was queued');

  const models = await modelsOf(a.api, token);
  t.equal(models.length, 2, 'two models listed');
  t.strictSame(
    models.map((m) => m.model_id),
    [second?.model_id, first.model_id],
    'newest first',
  );
  t.strictSame(
    models.map((m) => m.serving),
    [true, false],
    'the newest serves',
  );
  t.strictSame(
    models.map((m) => m.algorithm),
    ['als', 'als'],
  );
  if (models.length === 2) t.ok(models[0]!.timestamp >= models[1]!.timestamp, 'timestamps newest first');
});

t.test('after a manual run completed, POST tasks/ml_model_retrain/ works again and produces another model', async (t) => {
  const { db, token, model: first } = await trained(t);
  const ids: string[] = [];
  for (let n = 0; n < 2; n++) {
    const id = await trigger(t, a.api, token, db, 'ml_model_retrain');
    const { task } = await finished(a.api, token, 'ml_model_retrain', id);
    t.equal(task.status, 'COMPLETED', `run ${n + 1} completed (error: ${task.error})`);
    ids.push(modelOfProgress(task.progress)?.model_id ?? `(no model in ${JSON.stringify(task.progress)})`);
  }
  const models = await modelsOf(a.api, token);
  t.strictSame(
    models.map((m) => m.model_id),
    [ids[1], ids[0], first.model_id],
    'three models, newest first',
  );
  t.strictSame(
    models.map((m) => m.serving),
    [true, false, false],
    'only the newest serves',
  );
  t.equal(new Set(models.map((m) => m.model_id)).size, 3, 'distinct model ids');
  t.equal(await statusOf(b.api, token), 'ready');
});

t.test('POST tasks/<name>/: unknown names are TASK_NOT_FOUND; root and manager may; frontend is INCORRECT_ROLE', async (t) => {
  const { db, token } = await fresh();
  for (const name of ['no_such_task', 'ml_model_retrain_x']) {
    const r = await a.api.post(`tasks/${name}/`, undefined, { token });
    t.same(errorOf(r), TASK_NOT_FOUND, `${name}: ${why(r, 404)}`);
  }
  t.strictSame(await tasksOf(a.api, token, 'no_such_task'), [], 'no record under an unknown name');

  // ml_new_items on a database without a model: accepted, completes with nothing to do.
  for (const role of ['manager', 'root']) {
    const tok = await tokenFor(a.api, root, role, db);
    const id = await trigger(t, a.api, tok, db, 'ml_new_items');
    const { task } = await finished(a.api, token, 'ml_new_items', id);
    t.equal(task.status, 'COMPLETED', `${role}: ml_new_items without a model completes`);
    t.equal(task.name, 'ml_new_items');
  }

  const frontend = await tokenFor(a.api, root, 'frontend', db);
  for (const name of ['ml_model_retrain', 'ml_new_items']) {
    t.same(errorOf(await a.api.post(`tasks/${name}/`, undefined, { token: frontend })), INCORRECT_ROLE, `frontend POST tasks/${name}/`);
  }
  t.same(errorOf(await a.api.get('pretrained-ml/trained-models/', { token: frontend })), INCORRECT_ROLE, 'frontend GET trained-models');
  t.strictSame(await retrains(a.api, token), [], 'the refused POSTs queued no ml_model_retrain');
  t.equal((await tasksOf(a.api, token, 'ml_new_items')).length, 2, "nor ml_new_items: only the manager's and root's");
  const manager = await tokenFor(a.api, root, 'manager', db);
  t.strictSame(await modelsOf(a.api, manager), [], 'manager reads trained-models');
  t.strictSame(await modelsOf(a.api, await tokenFor(a.api, root, 'root', db)), [], 'root reads trained-models');
});

t.test('a run without ratings fails ("no ratings"), is retried with a new QUEUED record, and the database stays pending', async (t) => {
  const { db, token } = await fresh();
  const id = await trigger(t, a.api, token, db, 'ml_model_retrain');
  const { task } = await finished(a.api, token, 'ml_model_retrain', id);
  t.equal(task.status, 'FAILED', 'the run failed');
  t.type(task.error, 'string', 'error set');
  t.match(task.error ?? '', /no ratings/i, `error mentions no ratings: ${JSON.stringify(task.error)}`);
  t.type(task.end_time, 'number', 'end_time set');

  const all = await until(
    'a retry record',
    () => retrains(a.api, token),
    (ts) => ts.some((x) => x.task_id !== id),
  );
  const retry = all.find((x) => x.task_id !== id)!;
  t.equal(retry.name, 'ml_model_retrain');
  t.ok(retry.start_time >= task.start_time, 'the retry record is newer');
  t.equal(all[0]?.task_id, retry.task_id, 'listed first (newest first)');
  if (retry.status === 'QUEUED') t.match(retry.progress, /retry/i, `a queued retry says so: ${JSON.stringify(retry.progress)}`);
  else t.ok(['RUNNING', 'FAILED'].includes(retry.status), `the retry ran already: ${retry.status}`);
  if (retry.status === 'FAILED') t.match(retry.error ?? '', /no ratings/i, 'and failed the same way');

  t.equal(await statusOf(b.api, token), 'pending', 'still pending');
  t.strictSame(await modelsOf(a.api, token), [], 'no model');
});

t.test('a failed run (all ratings deleted) keeps the previous model serving and the database ready', async (t) => {
  const { db, token, model } = await trained(t);
  for (const u of range(0, N_USERS)) {
    const r = await a.api.delete(`users/${uid(u)}/ratings/`, undefined, { token });
    if (r.status !== 204) throw new Error(`DELETE users/${uid(u)}/ratings/: ${r.status} ${r.text}`);
  }
  t.equal(await ratingCount(a.redis, db), 0, 'no rating left');

  const id = await trigger(t, a.api, token, db, 'ml_model_retrain');
  const { task } = await finished(a.api, token, 'ml_model_retrain', id);
  t.equal(task.status, 'FAILED', 'the run failed');
  t.match(task.error ?? '', /no ratings/i, `error mentions no ratings: ${JSON.stringify(task.error)}`);

  const models = await modelsOf(a.api, token);
  t.equal(models.length, 1, 'still one model');
  t.equal(models[0]?.model_id, model.model_id, 'the first model');
  t.equal(models[0]?.serving, true, 'still serving');
  t.equal(await statusOf(b.api, token), 'ready', 'still ready');
  const onB = await modelsOf(b.api, token);
  t.equal(onB[0]?.serving, true, 'B agrees');
});

t.test('ml_new_items: without a model it has nothing to do; with one it publishes als+new-items with the new items', async (t) => {
  const { token } = await fresh();
  const prop = await a.api.post('items-properties/', { property_name: 'genre', value_type: 'unicode32' }, { token });
  t.equal(prop.status, 204, why(prop, 204));
  const GENRES = ['drama', 'comedy', 'thriller', 'documentary'];
  const items = (from: number, to: number) => range(from, to).map((i) => ({ item_id: i, genre: GENRES[i % GENRES.length] }));

  // The 40 rated items, created before any model: the task completes with nothing to do.
  const before = await a.api.put('items-bulk/properties/', { items: items(1, N_ITEMS + 1) }, { token });
  t.equal(before.status, 200, why(before, 200));
  t.type(before.body.ml_task_id, 'string', 'ml_task_id');
  const idle = await finished(a.api, token, 'ml_new_items', before.body.ml_task_id);
  t.equal(idle.task.status, 'COMPLETED', 'completes without a model');
  t.match(
    idle.task.progress,
    /nothing to do|no (trained )?model/i,
    `progress says there is nothing to do: ${JSON.stringify(idle.task.progress)}`,
  );
  t.strictSame(await modelsOf(a.api, token), [], 'and publishes nothing');

  // Train on the 600 ratings.
  await putRatings(t, a.api, token, RATINGS);
  const auto = (await retrains(a.api, token))[0];
  t.ok(auto, 'the automatic task');
  const done = await finished(a.api, token, 'ml_model_retrain', auto!.task_id);
  t.equal(done.task.status, 'COMPLETED', `trained (error: ${done.task.error})`);
  const [base] = await modelsOf(a.api, token);
  t.equal(base?.algorithm, 'als');
  t.equal(base?.n_items, N_ITEMS);

  // Five new items with genres.
  const added = await a.api.put('items-bulk/properties/', { items: items(N_ITEMS + 1, N_ITEMS + 6) }, { token });
  t.equal(added.status, 200, why(added, 200));
  t.equal(added.body.n_created, 5);
  t.type(added.body.ml_task_id, 'string', 'ml_task_id');
  const { task } = await finished(a.api, token, 'ml_new_items', added.body.ml_task_id);
  t.equal(task.status, 'COMPLETED', `completed (error: ${task.error})`);
  t.match(task.progress, /\b5\b/, `progress tells how many items got factors: ${JSON.stringify(task.progress)}`);

  const models = await modelsOf(a.api, token);
  t.equal(models.length, 2, 'a new model version');
  const [ext, old] = models;
  checkModelShape(t, ext!, 'extended');
  t.equal(ext?.algorithm, 'als+new-items');
  t.not(ext?.model_id, base?.model_id, 'its own model_id');
  t.equal(ext?.n_items, base!.n_items + 5, 'n_items grew by the 5 new items');
  t.equal(ext?.n_users, base?.n_users, 'same users');
  t.equal(ext?.n_ratings, base?.n_ratings, 'same ratings');
  t.equal(ext?.factors, FACTORS);
  t.equal(ext?.serving, true, 'the extended version serves');
  t.equal(old?.model_id, base?.model_id, 'the base model is listed after it');
  t.equal(old?.serving, false, 'and no longer serves');
  t.equal(await statusOf(b.api, token), 'ready');
  const onB = await until(
    'B loads the extended version',
    () => modelsOf(b.api, token),
    (ms) => ms[0]?.model_id === ext?.model_id && ms[0]?.loaded === true,
  );
  t.equal(onB[0]?.serving, true, 'B lists it serving');
});

// Two processes read the queue, one runs the entry and settles it, then the other takes the lock: it
// must find nothing to run (it used to run the task again, on a model it had not reloaded yet).
t.test('a queue entry is leased only while it is due', async (t) => {
  const store = new TrainingStore(a.redis);
  const db = `lease-test-${Date.now()}`;
  const member = `ml_new_items ${db}`;
  const now = Date.now();
  t.teardown(() => a.redis.zrem(keys.trainingQueue(), member));
  t.equal(await store.leaseIfDue(db, 'ml_new_items', now, now + 60_000), false, 'nothing queued: no lease');
  await store.enqueue(db, 'ml_new_items', now);
  t.equal(await store.leaseIfDue(db, 'ml_new_items', now, now + 60_000), true, 'due: leased');
  t.equal(Number(await a.redis.zscore(keys.trainingQueue(), member)), now + 60_000, 'due again when the lease ends');
  t.equal(await store.leaseIfDue(db, 'ml_new_items', now + 1, now + 120_000), false, 'leased by a run: not due');
  await store.settle(db, 'ml_new_items', 'a-trainer ml_new_items');
  t.equal(await a.redis.zscore(keys.trainingQueue(), member), null, 'settled: out of the queue');
  t.equal(await store.leaseIfDue(db, 'ml_new_items', now + 2, now + 120_000), false, 'settled: no lease');
  await store.schedule(db, 'ml_new_items', now + 30_000);
  t.equal(await store.leaseIfDue(db, 'ml_new_items', now + 3, now + 120_000), false, 'a retry backing off: not due yet');
  t.equal(Number(await a.redis.zscore(keys.trainingQueue(), member)), now + 30_000, 'and its due time is kept');
  t.equal(await store.leaseIfDue(db, 'ml_new_items', now + 30_000, now + 120_000), true, 'due at its time');
});

// A trainer that stalled past its lock's TTL while another took the lock over: the new holder gets
// the stalled run's marker (to record it abandoned), and the stalled one's settle touches nothing.
t.test('a run marker goes to the next holder of the lock; a stalled trainer settles nothing', async (t) => {
  const store = new TrainingStore(a.redis);
  const db = `takeover-test-${Date.now()}`;
  const member = `ml_model_retrain ${db}`;
  t.teardown(() => a.redis.del(keys.trainerLock(db), keys.trainingRun(db)).then(() => a.redis.zrem(keys.trainingQueue(), member)));
  const stalled = 'stalled ml_model_retrain';
  const next = 'next ml_model_retrain';
  t.equal(await store.lock(db, stalled, 60_000), true);
  t.equal(await store.beginRun(db, stalled, 'task-1'), true, 'the run is marked under the lock');
  t.equal(await store.takeAbandoned(db, next), undefined, 'only the lock holder takes a marker');
  await a.redis.del(keys.trainerLock(db)); // the stalled trainer's lock expires
  await store.enqueue(db, 'ml_model_retrain', Date.now());
  t.equal(await store.lock(db, next, 60_000), true, 'another trainer takes the lock');
  t.equal(await store.beginRun(db, stalled, 'task-2'), false, 'the stalled one cannot mark a run any more');
  t.equal(await store.settle(db, 'ml_model_retrain', stalled), false, 'nor settle');
  t.not(await a.redis.zscore(keys.trainingQueue(), member), null, 'the queue entry is left to the holder');
  t.strictSame(await store.takeAbandoned(db, next), { name: 'ml_model_retrain', taskId: 'task-1' }, 'the holder takes the stalled run');
  t.equal(await a.redis.get(keys.trainingRun(db)), null, 'once');
  t.equal(await store.settle(db, 'ml_model_retrain', next), true, 'the holder settles');
  t.equal(await a.redis.zscore(keys.trainingQueue(), member), null);
});
