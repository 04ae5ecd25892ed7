// A training run outlives neither its process nor a stop: recd killed with SIGKILL mid-run leaves a
// RUNNING record that the next trainer (here a restarted recd) records FAILED, with the reason, and
// retries; SIGTERM mid-run ends the run at once, records it FAILED as interrupted and queues it again.
// recd runs as a separate process on a private redis-server; every wait is a bounded poll.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { rmSync } from 'node:fs';
import t, { type Test } from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { Api } from '../helpers/api.js';
import { run, type Proc } from '../helpers/cli.js';
import { rootToken } from '../helpers/fixtures.js';
import { freshDatabase } from '../helpers/feedback.js';
import { RATINGS, statusOf, tasksOf, until, type TaskRow } from '../helpers/reco.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from '../helpers/stack.js';

const { server, dir } = await startRedis();
t.teardown(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

// A trainer lock of 1 s (the least allowed): a dead trainer's run is found about a second later.
const BASE = {
  REDIS_URL: server.url,
  RECD_ROOT_EMAIL: ROOT_EMAIL,
  RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  RECD_TRAINING_LOCK_TTL_MS: '1000',
  RECD_TRAINING_POLL_MS: '200',
  RECD_TRAINING_RETRY_SECONDS: '1',
  RECD_TRAINING_THREADS: '1',
  RECD_ALS_FACTORS: '8',
  RECD_ALS_ITERATIONS: '4',
};
// A run that lasts minutes: the first training searches, for up to 10 minutes.
const SLOW = { ...BASE, RECD_SEARCH_SECONDS: '600', RECD_SEARCH_TRIALS: '1000' };
const QUICK = { ...BASE, RECD_SEARCH_SECONDS: '0' };

// `recd serve --workers 1` listening on a port of its own; killed at teardown if still running.
async function serve(t: Test, env: Record<string, string>): Promise<{ proc: Proc; api: Api }> {
  const port = await freePort();
  const proc = run(['serve', '--workers', '1'], { ...env, PORT: String(port) });
  t.teardown(async () => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await proc.exited;
  });
  await until(
    'recd listening',
    async () => proc.out(),
    (out) => out.includes('recd listening') || proc.child.exitCode !== null,
    30_000,
  );
  if (!proc.out().includes('recd listening')) throw new Error(`recd did not start: ${proc.out()}`);
  return { proc, api: new Api(`http://127.0.0.1:${port}/v1`) };
}

// A database whose ratings (over 500) queued a first training, and that training once it runs.
async function runningTraining(api: Api): Promise<{ token: string; running: TaskRow }> {
  const { token } = await freshDatabase(api, await rootToken(api));
  const put = await api.put('ratings-bulk/', { ratings: RATINGS }, { token });
  if (put.status !== 200) throw new Error(`ratings: ${put.status} ${put.text}`);
  const tasks = await until(
    'a training RUNNING',
    () => tasksOf(api, token, 'ml_model_retrain'),
    (ts) => ts.some((x) => x.status === 'RUNNING'),
    30_000,
  );
  return { token, running: tasks.find((x) => x.status === 'RUNNING')! };
}

t.test('a run whose process is killed with SIGKILL is recorded FAILED with the reason and retried', async (t) => {
  const first = await serve(t, SLOW);
  const { token, running } = await runningTraining(first.api);
  first.proc.child.kill('SIGKILL');
  await first.proc.exited;

  const second = await serve(t, QUICK);
  const tasks = await until(
    'the killed run FAILED and a retry COMPLETED',
    () => tasksOf(second.api, token, 'ml_model_retrain'),
    (ts) => ts.find((x) => x.task_id === running.task_id)?.status === 'FAILED' && ts.some((x) => x.status === 'COMPLETED'),
    60_000,
  );
  const killed = tasks.find((x) => x.task_id === running.task_id)!;
  t.match(killed.error, /^abandoned: the process running it stopped/, `the reason is recorded: ${killed.error}`);
  t.equal(tasks.filter((x) => x.status === 'RUNNING').length, 0, 'nothing left RUNNING');
  t.equal(await statusOf(second.api, token), 'ready', 'the retry trained the database');
});

t.test('SIGTERM in the middle of a run stops at once, records the run interrupted and queues it again', async (t) => {
  const first = await serve(t, SLOW);
  const { token, running } = await runningTraining(first.api);
  const sent = Date.now();
  first.proc.child.kill('SIGTERM');
  t.equal(await first.proc.exited, 0, 'exit code 0');
  const seconds = (Date.now() - sent) / 1000;
  // The search alone would take 10 minutes: the stop does not wait for it.
  t.ok(seconds < 60, `stopped in ${seconds.toFixed(1)} s`);

  const second = await serve(t, QUICK);
  const tasks = await until(
    'the queued run COMPLETED',
    () => tasksOf(second.api, token, 'ml_model_retrain'),
    (ts) => ts.some((x) => x.status === 'COMPLETED'),
    60_000,
  );
  const stopped = tasks.find((x) => x.task_id === running.task_id)!;
  t.equal(stopped.status, 'FAILED');
  t.match(stopped.error, /^interrupted: recd stopped during the run/, `the reason is recorded: ${stopped.error}`);
  t.notMatch(stopped.error, /abandoned/, 'recorded by the stopping process itself, not found abandoned');
  t.equal(await statusOf(second.api, token), 'ready', 'the run queued again trained the database');
});
