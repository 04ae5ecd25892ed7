// kill -9 of recd while clients send bulk uploads (ratings in JSON and msgpack, interactions, items)
// and single writes: every write answered 2xx is stored (read back after a restart), and no answer is
// a 5xx other than 503 (requests cut by the kill get no answer at all). Both for recd as one process
// and for a worker of `recd serve --workers 2`, which its supervisor replaces.
import t, { type Test } from 'tap';
import { ChaosRedis, RecdProcess, summary, Workload } from '../helpers/chaos.js';

const KILLS = 3;
const WORKER_KILLS = 2; // the supervisor restarts a worker that died young after 250 ms, 500 ms, …

const redis = await ChaosRedis.start();
t.teardown(() => redis.close());

// After the writers stopped: what they got, and no acknowledged write missing when read back.
async function checkKept(t: Test, recd: RecdProcess, work: Workload): Promise<void> {
  const log = work.log;
  t.comment(`answers: ${summary(log)}`);
  t.comment(`acknowledged writes: ${log.acked.length}, facts: ${log.acked.reduce((n, a) => n + a.facts.length, 0)}`);
  t.ok(log.acked.length > 0, 'writes were acknowledged');
  t.same(log.unexpected, [], 'every answer is 2xx or 503');
  if (log.unexpected.length > 0) t.comment(`recd logged:\n${recd.errors().join('\n')}`);
  t.same(log.strangeErrors(), [], 'requests without an answer were refused or cut by the kill only');
  t.ok((log.statuses.get('ECONNRESET') ?? 0) + (log.statuses.get('socket hang up') ?? 0) > 0, 'the kills cut requests in flight');
  const missing = await work.missing(recd.api);
  t.same(
    missing.slice(0, 5).map((m) => ({ writer: m.write.writer, lost: m.lost.slice(0, 3), of: m.write.facts.length })),
    [],
    `acknowledged writes missing after the kills: ${missing.length}`,
  );
}

t.test('no acknowledged write is lost when recd is killed mid-stream, again and again', async (t) => {
  const recd = await RecdProcess.start(redis.url);
  t.teardown(() => recd.close());
  const work = await Workload.prepare(recd.api);
  work.start();
  for (let k = 1; k <= KILLS; k++) {
    await work.progress(3); // every writer is in its stream, and each has a request in flight now
    const pid = recd.pid;
    await recd.kill();
    await recd.restart();
    t.not(recd.pid, pid, `kill ${k}: a new recd process serves`);
  }
  await work.progress(3);
  await work.stop();
  await recd.kill();
  await recd.restart();
  await checkKept(t, recd, work);
});

t.test('no acknowledged write is lost when workers of recd serve --workers 2 are killed mid-stream', async (t) => {
  const recd = await RecdProcess.start(redis.url, { RECD_WORKERS: '2' });
  t.teardown(() => recd.close());
  const work = await Workload.prepare(recd.api);
  work.start();
  for (let k = 1; k <= WORKER_KILLS; k++) {
    await work.progress(3);
    await recd.killWorker();
  }
  await work.progress(3);
  await work.stop();
  await checkKept(t, recd, work);
});
