// /healthz and /readyz for container orchestrators: outside /v1, no token, and /readyz answers 503
// quickly when Redis is stalled or gone.
import t from 'tap';
import { Api } from '../helpers/api.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const probes = new Api(`http://127.0.0.1:${stack.app.port}`);

t.test('both probes answer 200 without a token, outside /v1', async (t) => {
  for (const path of ['healthz', 'readyz', 'readyz/']) {
    const r = await probes.get(path);
    t.equal(r.status, 200, path);
    t.same(r.body, { status: 'ok' }, path);
    t.equal(r.headers['cache-control'], 'no-store');
  }
  t.equal((await probes.call('HEAD', 'healthz')).status, 200);
  const wrong = await probes.post('readyz', {});
  t.equal(wrong.status, 405);
  t.equal(wrong.headers.allow, 'GET, HEAD, OPTIONS');
  t.equal((await stack.api.get('healthz')).status, 404, 'not under /v1');
});

t.test('/readyz: 503 within its own short timeout while Redis is stalled, 200 again after', async (t) => {
  process.kill(stack.redisServer.pid, 'SIGSTOP');
  let stalled: Awaited<ReturnType<typeof probes.get>>, alive: Awaited<ReturnType<typeof probes.get>>, ms: number;
  try {
    const started = Date.now();
    stalled = await probes.get('readyz');
    ms = Date.now() - started;
    alive = await probes.get('healthz');
  } finally {
    process.kill(stack.redisServer.pid, 'SIGCONT');
  }
  t.equal(stalled.status, 503);
  t.equal(stalled.body.status, 'unavailable');
  t.match(stalled.body.reason, /^redis: Command timed out: Redis did not answer within 1000 ms$/);
  // The probe's bound (1 s) and not the command timeout (10 s) decides when it answers.
  t.ok(ms < 8000, `answered after ${ms} ms`);
  t.equal(alive.status, 200, '/healthz does not depend on Redis');
  let back = await probes.get('readyz');
  for (let i = 0; i < 50 && back.status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    back = await probes.get('readyz');
  }
  t.equal(back.status, 200, 'ready again once Redis answers');
});

t.test('/readyz: 503 with the connection state when Redis is gone', async (t) => {
  const other = await startStack();
  t.teardown(() => other.close());
  other.redis.on('error', () => {}); // the test's own client sees Redis go too
  const p = new Api(`http://127.0.0.1:${other.app.port}`);
  t.equal((await p.get('readyz')).status, 200);
  await other.redisServer.stop();
  let r = await p.get('readyz');
  for (let i = 0; i < 50 && r.status !== 503; i++) {
    await new Promise((res) => setTimeout(res, 100));
    r = await p.get('readyz');
  }
  t.equal(r.status, 503);
  t.match(r.body.reason, /redis/);
  t.equal((await p.get('healthz')).status, 200);
});
