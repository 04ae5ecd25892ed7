// recd's Redis connections while Redis goes away and comes back: the loss is logged once and the
// return once, and ioredis never prints "[ioredis] Unhandled error event" (what it does, at every
// reconnection attempt, for a connection without an error handler).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import t from 'tap';
import { connectRedis, waitForRedis } from '../../src/store/redis.js';
import { startRedisServer } from '../../src/store/redis-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

t.test('a lost Redis is logged once, its return once, and nothing is printed', async (t) => {
  const logged: { msg: string; connection: string }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        logged.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  const printed: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  const dir = mkdtempSync(join(tmpdir(), 'recd-conn-'));
  let server = await startRedisServer(join(dir, 'redis'));
  const redis = connectRedis(server.url, { commandTimeoutMs: 1000, name: 'recd-probe', logger });
  t.teardown(async () => {
    console.error = consoleError;
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  await waitForRedis(redis, 10_000);

  let attempts = 0;
  redis.on('reconnecting', () => attempts++);
  const port = server.port;
  await server.stop();
  await until('several reconnection attempts', () => attempts >= 4);
  server = await startRedisServer(join(dir, 'redis'), port);
  await until('the connection to be back', () => redis.status === 'ready' && logged.some((l) => l.msg === 'Redis connection restored'));
  t.equal(await redis.ping(), 'PONG');

  t.same(
    printed.filter((p) => p.includes('[ioredis]')),
    [],
    'ioredis printed nothing',
  );
  const ours = logged.filter((l) => l.connection === 'recd-probe');
  t.same(
    ours.map((l) => l.msg),
    ['Redis connection failed; reconnecting', 'Redis connection restored'],
    `logged once each over ${attempts} attempts`,
  );
});
