// kill -9 of redis-server while clients write, then a restart from its AOF on the same directory and
// port (redis.conf: appendonly, appendfsync everysec): recd reconnects by itself, answers 503 while
// Redis is away (never another 5xx), and an acknowledged write is missing afterwards only if it was
// acknowledged within the last second before a kill.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { REDIS_CONF } from '../../src/store/redis-server.js';
import { ChaosRedis, RecdProcess, summary, Workload, type Acked } from '../helpers/chaos.js';
import { until } from '../helpers/cli.js';

const KILLS = 2;
// What appendfsync everysec may lose (the target of issue 18: at most 1 s of writes).
const LOSS_WINDOW_MS = 1000;

t.test('redis.conf keeps an AOF fsynced every second', async (t) => {
  const conf = readFileSync(REDIS_CONF, 'utf8');
  t.match(conf, /^appendonly yes$/m);
  t.match(conf, /^appendfsync everysec$/m);
});

t.test('writes acknowledged before a kill -9 of Redis survive its restart from the AOF, but for the last second', async (t) => {
  const redis = await ChaosRedis.start();
  t.teardown(() => redis.close());
  const recd = await RecdProcess.start(redis.url);
  t.teardown(() => recd.close());
  const pid = recd.pid;
  const work = await Workload.prepare(recd.api);
  const log = work.log;
  const unavailable = () => log.statuses.get('503') ?? 0;
  const kills: number[] = [];
  work.start();
  for (let k = 1; k <= KILLS; k++) {
    await work.progress(3);
    const before = unavailable();
    kills.push(Date.now());
    await redis.kill();
    await until('503 answers while Redis is away', () => unavailable() >= before + 5, 30_000);
    await redis.restart();
    await work.progress(3); // recd serves writes again by itself
    t.equal(recd.pid, pid, `Redis kill ${k}: the same recd process serves again`);
  }
  await work.stop();

  t.comment(`answers: ${summary(log)}`);
  t.comment(`acknowledged writes: ${log.acked.length}, facts: ${log.acked.reduce((n, a) => n + a.facts.length, 0)}`);
  t.same(log.unexpected, [], 'every answer is 2xx or 503');
  t.same([...log.statuses.keys()].filter((s) => !/^\d+$/.test(s)), [], 'recd answered every request');

  // Which kill each acknowledged write was exposed to first, and how long before it it was acknowledged.
  const exposure = (a: Acked) => {
    const kill = kills.find((at) => at >= a.ackedAt);
    return kill === undefined ? Infinity : kill - a.ackedAt;
  };
  // Read back through the recd that lived through the kills, and through a fresh one (which holds
  // nothing from before: what Redis has).
  const fresh = await RecdProcess.start(redis.url);
  t.teardown(() => fresh.close());
  for (const [name, api] of [['the recd that lived through the kills', recd.api], ['a fresh recd', fresh.api]] as const) {
    const missing = await work.missing(api);
    const late = missing.filter((m) => exposure(m.write) > LOSS_WINDOW_MS);
    t.comment(`${name}: ${missing.length} acknowledged writes missing, acknowledged ${missing.map((m) => exposure(m.write)).join(', ') || '-'} ms before a kill`);
    t.same(
      late.slice(0, 5).map((m) => ({ writer: m.write.writer, msBeforeKill: exposure(m.write), lost: m.lost.slice(0, 3) })),
      [],
      `${name}: no write acknowledged more than ${LOSS_WINDOW_MS} ms before a kill is missing`,
    );
  }
});
