// Training over HTTP: retrain() asks for a retrain and waits for it and what follows it (Trained: the serving model, how long, the tasks).
import { call, ok } from './api.js';
import { sleep } from './processes.js';
import { settings } from './settings.js';

// BENCH_RETRAIN_TIMEOUT_SECONDS (default 600) per step: each wait below may take that long.
const TIMEOUT_MS = settings.retrainTimeoutSeconds * 1000;
const LOAD_WAIT_MS = 300_000;

export interface Trained {
  retrainSeconds: number; // from the explicit POST to the end of any ml_new_items after it
  taskSeconds: number; // the explicit ml_model_retrain task's record: start to end
  newItemsSeconds: number; // ml_new_items records that started after it, start to end, summed
  model: Record<string, any>;
  tasks: string;
}

interface TaskRecord {
  task_id: string;
  status: string;
  progress: string;
  error: string | null;
  start_time: number;
  end_time: number | null;
}

const recents = async (base: string, token: string, name: string): Promise<TaskRecord[]> =>
  (await ok(base, token, 'GET', `/v1/tasks/${name}/recents/?amt=50`)).tasks;

// Until no run of the task is queued or running.
export async function settle(base: string, token: string, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = (await recents(base, token, name)).filter((t) => t.status === 'QUEUED' || t.status === 'RUNNING');
    if (busy.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${name} still busy after ${timeoutMs / 1000} s (BENCH_RETRAIN_TIMEOUT_SECONDS): ${JSON.stringify(busy)}`);
    await sleep(500);
  }
}

// The thresholds' trainings saw part of the upload at most: one more, requested now, sees it all.
export async function retrain(base: string, token: string, factors: string, ratings: number): Promise<Trained> {
  const t0 = performance.now();
  let taskId: string | undefined;
  while (taskId === undefined) {
    const r = await call(base, 'POST', '/v1/tasks/ml_model_retrain/', undefined, token);
    if (r.status === 200) taskId = r.json.task_id as string;
    else if (r.text.includes('TASK_ALREADY_RUNNING')) await settle(base, token, 'ml_model_retrain', TIMEOUT_MS);
    else throw new Error(`POST tasks/ml_model_retrain/: ${r.status} ${r.text}`);
  }
  process.stderr.write(`retrain requested: task ${taskId}\n`);
  for (;;) {
    const task = (await recents(base, token, 'ml_model_retrain')).find((t) => t.task_id === taskId);
    if (task?.status === 'COMPLETED') break;
    if (task?.status === 'FAILED') throw new Error(`ml_model_retrain failed: ${task.error}`);
    if (performance.now() - t0 > TIMEOUT_MS)
      throw new Error(`ml_model_retrain not done after ${TIMEOUT_MS / 1000} s (BENCH_RETRAIN_TIMEOUT_SECONDS): ${JSON.stringify(task)}`);
    await sleep(250);
  }
  await sleep(1000);
  await settle(base, token, 'ml_new_items', TIMEOUT_MS);
  await settle(base, token, 'ml_model_retrain', TIMEOUT_MS);
  const retrainSeconds = (performance.now() - t0) / 1000;
  for (let k = 0; ; k++) {
    const s = await ok(base, token, 'GET', '/v1/databases/current/status/');
    if (s.status === 'ready') break;
    if (k > 600) throw new Error(`database status still ${JSON.stringify(s)}`);
    await sleep(100);
  }
  // Serving: the model this recd process holds, which is the newest once it has loaded it (seconds
  // for a model of a million users, after the task that published it is over): up to LOAD_WAIT_MS.
  let model: Record<string, any> | undefined;
  for (const deadline = performance.now() + Math.min(TIMEOUT_MS, LOAD_WAIT_MS); ; await sleep(500)) {
    const listed = (await ok(base, token, 'GET', '/v1/pretrained-ml/trained-models/')).models as Record<string, unknown>[];
    model = listed.find((m) => m.serving === true);
    if (model?.n_ratings === ratings || performance.now() > deadline) break;
  }
  if (!model) throw new Error('no serving model');
  if (String(model.factors) !== factors) throw new Error(`serving model has ${model.factors} factors, not ${factors}`);
  if (model.n_ratings !== ratings) {
    const records = async (name: string) =>
      (await recents(base, token, name)).slice(0, 6).map((t) => `${t.task_id} ${t.status} ${t.start_time}–${t.end_time}: ${t.progress}`);
    throw new Error(
      `serving model covers ${model.n_ratings} ratings of ${ratings}; the last tasks:\n${[...(await records('ml_model_retrain')), ...(await records('ml_new_items'))].join('\n')}`,
    );
  }
  const span = (t: TaskRecord) => (t.end_time ?? t.start_time) - t.start_time;
  const explicit = (await recents(base, token, 'ml_model_retrain')).find((t) => t.task_id === taskId);
  const taskSeconds = explicit ? span(explicit) : NaN;
  const newItemsSeconds = (await recents(base, token, 'ml_new_items'))
    .filter((t) => explicit && t.start_time >= explicit.start_time)
    .reduce((sum, t) => sum + span(t), 0);
  const done = async (name: string) =>
    (await recents(base, token, name)).map((t) =>
      `${t.status} ${(t.end_time ?? 0) - t.start_time > 0 ? `${((t.end_time ?? 0) - t.start_time).toFixed(1)} s` : ''}`.trim(),
    );
  const tasks = `ml_model_retrain: ${(await done('ml_model_retrain')).reverse().join(', ')}; ml_new_items: ${(await done('ml_new_items')).reverse().join(', ') || 'none'}`;
  process.stderr.write(`model ready after ${retrainSeconds.toFixed(1)} s: ${JSON.stringify(model)}\n${tasks}\n`);
  return { retrainSeconds, taskSeconds, newItemsSeconds, model, tasks };
}
