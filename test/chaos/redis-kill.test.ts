// kill -9 of redis-server while clients write, then a restart from its AOF on the same directory and
// port (redis.conf: appendonly, appendfsync everysec): recd reconnects by itself, answers 503 while
// Redis is away (never another 5xx), and an acknowledged write is missing afterwards only if it was
// acknowledged within the last second before a kill. And a host crash, which takes the AOF back to
// its last fsync: recd serves on from what Redis kept, and loses nothing written afterwards.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { REDIS_CONF } from '../../src/store/redis-server.js';
import { answeredAsExpected, exposure, summary, Workload, type Loss } from '../helpers/chaos.js';
import { ChaosRedis, RecdProcess } from '../helpers/chaos-processes.js';

const KILLS = 2;
// What appendfsync everysec may lose (the target of issue 18: at most 1 s of writes). Redis writes
// the AOF before it answers, so a killed process loses only what it held back while a slow fsync was
// in progress (Redis' own bound: 2 s of a stalled disk).
const LOSS_WINDOW_MS = 1000;

t.test('redis.conf keeps an AOF fsynced every second', async (t) => {
  const conf = readFileSync(REDIS_CONF, 'utf8');
  t.match(conf, /^appendonly yes$/m);
  t.match(conf, /^appendfsync everysec$/m);
});

// Starts recd on its own Redis and the writers; both go when `t` ends.
async function writing(t: Test) {
  const redis = await ChaosRedis.start();
  t.teardown(() => redis.close());
  const recd = await RecdProcess.start(redis.url);
  t.teardown(() => recd.close());
  const work = await Workload.prepare(recd.api);
  work.start();
  return { redis, recd, work };
}

// After the writers stopped: the answers they got were 2xx or 503, and every acknowledged write that
// is missing was exposed to a loss within LOSS_WINDOW_MS of being acknowledged. Read back through
// the recd that lived through the losses and through a fresh one (what Redis has): the same writes
// are missing from both. Resolves with the number missing.
async function checkLosses(t: Test, redisUrl: string, recd: RecdProcess, work: Workload, losses: Loss[]): Promise<number> {
  const log = work.log;
  t.comment(`answers: ${summary(log)}`);
  t.comment(`acknowledged writes: ${log.acked.length}, facts: ${log.acked.reduce((n, a) => n + a.facts.length, 0)}`);
  answeredAsExpected(t, log, recd);
  t.same(
    [...log.statuses.keys()].filter((s) => !/^\d+$/.test(s)),
    [],
    'recd answered every request',
  );
  const fresh = await RecdProcess.start(redisUrl);
  t.teardown(() => fresh.close());
  const lived = await work.missing(recd.api);
  const kept = await work.missing(fresh.api);
  for (const [name, missing] of [
    ['the recd that lived through it', lived],
    ['a fresh recd', kept],
  ] as const) {
    const times = missing.map((m) => exposure(m.write, losses) ?? Infinity);
    const span = missing.length ? `, acknowledged ${-Math.max(...times)} to ${-Math.min(...times)} ms after the loss began` : '';
    t.comment(`${name}: ${missing.length} acknowledged writes missing${span}`);
    t.same(
      missing
        .filter((m) => (exposure(m.write, losses) ?? Infinity) > LOSS_WINDOW_MS)
        .slice(0, 5)
        .map((m) => ({ writer: m.write.writer, msBeforeLoss: exposure(m.write, losses), lost: m.lost.slice(0, 3) })),
      [],
      `${name}: no write acknowledged more than ${LOSS_WINDOW_MS} ms before a loss, or sent after it, is missing`,
    );
  }
  t.same(
    lived.map((m) => log.acked.indexOf(m.write)),
    kept.map((m) => log.acked.indexOf(m.write)),
    'the recd that lived through it shows no write that Redis lost',
  );
  return kept.length;
}

t.test('writes acknowledged before a kill -9 of Redis survive its restart from the AOF, but for the last second', async (t) => {
  const { redis, recd, work } = await writing(t);
  const pid = recd.pid;
  const losses: Loss[] = [];
  for (let k = 1; k <= KILLS; k++) {
    await work.progress(3);
    await work.midStream();
    const lossFrom = Date.now();
    await redis.kill();
    losses.push({ lossFrom, goneAt: Date.now() });
    await work.unavailable(); // every kind of request met the outage
    await redis.restart();
    await work.progress(3); // recd serves writes again by itself
    t.equal(recd.pid, pid, `Redis kill ${k}: the same recd process serves again`);
  }
  await work.stop();
  await checkLosses(t, redis.url, recd, work, losses);
});

t.test('a host crash takes Redis back to its last fsync: recd serves on from there, and keeps every later write', async (t) => {
  const { redis, recd, work } = await writing(t);
  await work.progress(3);
  const cut = redis.aofEnd(); // the disk holds the AOF up to here
  const lossFrom = Date.now();
  await work.progress(3); // acknowledged, in the AOF, not yet on disk
  await work.midStream();
  await redis.kill();
  const goneAt = Date.now();
  redis.cutAof(cut);
  await redis.restart();
  await work.progress(3);
  await work.stop();
  const lost = await checkLosses(t, redis.url, recd, work, [{ lossFrom, goneAt }]);
  t.ok(lost > 0, 'writes acknowledged after the cut are gone (the crash is real)');
});
