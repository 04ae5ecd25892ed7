// kill -9 of recd while clients send bulk uploads (ratings in JSON and msgpack, interactions, items)
// and single writes: every write answered 2xx is stored (read back after a restart), and no answer is
// a 5xx other than 503 (requests cut by the kill get no answer at all). Both for recd as one process
// and for a worker of `recd serve --workers 2`, which its supervisor replaces.
import t, { type Test } from 'tap';
import { answeredAsExpected, summary, Workload } from '../helpers/chaos.js';
import { ChaosRedis, RecdProcess } from '../helpers/chaos-processes.js';

const KILLS = 3;

const redis = await ChaosRedis.start();
t.teardown(() => redis.close());

// After the writers stopped: what they got, and no acknowledged write missing when read back.
// Resolves with the number of requests the kills cut.
async function checkKept(t: Test, recd: RecdProcess, work: Workload): Promise<number> {
  const log = work.log;
  const cut = (log.statuses.get('ECONNRESET') ?? 0) + (log.statuses.get('socket hang up') ?? 0);
  t.comment(`answers: ${summary(log)}`);
  t.comment(`acknowledged writes: ${log.acked.length}, facts: ${log.acked.reduce((n, a) => n + a.facts.length, 0)}`);
  t.ok(log.acked.length > 0, 'writes were acknowledged');
  answeredAsExpected(t, log, recd);
  t.same(log.strangeErrors(), [], 'requests without an answer were refused or cut by the kill only');
  const missing = await work.missing(recd.api);
  t.same(
    missing.slice(0, 5).map((m) => ({ writer: m.write.writer, lost: m.lost.slice(0, 3), of: m.write.facts.length })),
    [],
    `acknowledged writes missing after the kills: ${missing.length}`,
  );
  return cut;
}

t.test('no acknowledged write is lost when recd is killed mid-stream, again and again', async (t) => {
  const recd = await RecdProcess.start(redis.url);
  t.teardown(() => recd.close());
  const work = await Workload.prepare(recd.api);
  work.start();
  for (let k = 1; k <= KILLS; k++) {
    await work.progress(3);
    await work.midStream();
    const pid = recd.pid;
    const at = Date.now();
    await recd.kill();
    await recd.restart();
    t.not(recd.pid, pid, `kill ${k}: a new recd process serves, ${Date.now() - at} ms after the kill`);
  }
  await work.progress(3);
  await work.stop();
  const cut = await checkKept(t, recd, work); // through the process started after the last kill
  t.ok(cut > 0, `the kills cut requests in flight (${cut})`);
});

// One kill: the survivor serves meanwhile, the replacement after (each start costs seconds on a
// loaded machine; test/integration/workers.test.ts covers replacements as such).
t.test('no acknowledged write is lost when a worker of recd serve --workers 2 is killed mid-stream', async (t) => {
  const recd = await RecdProcess.start(redis.url, { RECD_WORKERS: '2' });
  t.teardown(() => recd.close());
  const work = await Workload.prepare(recd.api);
  work.start();
  await work.progress(3);
  await work.midStream();
  const at = Date.now();
  await recd.killWorker();
  t.comment(`the replacement listens ${Date.now() - at} ms after the kill`);
  await work.progress(3);
  await work.stop();
  t.comment(`requests cut by the kill: ${await checkKept(t, recd, work)}`);
});
