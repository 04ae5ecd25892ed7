// Two recd processes agree on the JWT secret after Redis lost its data (FLUSHALL, or a new empty
// Redis at the same address): a process started on the empty Redis stores a secret of its own, and
// the one already running takes it (docs/security.md, "Storage faults").
import { rmSync } from 'node:fs';
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { rootToken } from '../helpers/fixtures.js';
import { startRedis, startStack, type Stack } from '../helpers/stack.js';

const { server, dir } = await startRedis();
const a = await startStack({}, server);
let b: Stack = await startStack({}, server);
t.teardown(async () => {
  await a.close();
  await b.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Tokens from a login on one process, each used on the other: how many are refused.
async function refusedAcross(n: number): Promise<number> {
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
    const token = await rootToken(from.api);
    const r = await to.api.get('databases/', { token });
    if (r.status === 401) refused++;
    else if (r.status !== 200) throw new Error(`unexpected ${r.status}: ${r.text}`);
  }
  return refused;
}

t.test('a process restarted on a flushed Redis: both processes use one secret at once', async (t) => {
  t.equal(await refusedAcross(10), 0, 'before');
  const before = await rootToken(a.api);
  await a.redis.flushall();
  // Restarted at once, before the running process's own check: it stores a new secret.
  await b.close();
  b = await startStack({}, server);
  t.equal(await refusedAcross(60), 0, 'none of 60 cross-process requests refused');
  t.equal((await a.redis.get(keys.jwtSecret())) !== null, true, 'the secret is stored');
  const old = [(await a.api.get('databases/', { token: before })).status, (await b.api.get('databases/', { token: before })).status];
  t.same(old, [401, 401], 'a token of the lost secret is refused by both');
  t.ok(
    (await a.api.get('databases/', { token: await rootToken(a.api) })).status === 200,
    'the root account is back (RECD_ROOT_* at start)',
  );
});

t.test('a flushed Redis with no restart: the running processes store their secret again', async (t) => {
  const token = await rootToken(a.api);
  const secret = await a.redis.get(keys.jwtSecret());
  await a.redis.flushall();
  const end = Date.now() + 3000;
  while ((await a.redis.get(keys.jwtSecret())) === null && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  t.equal(await a.redis.get(keys.jwtSecret()), secret, 'the same secret, stored again within about a second');
  await b.close();
  b = await startStack({}, server);
  // Its account went with the data; the token itself still verifies.
  t.not((await b.api.get('databases/', { token })).status, 401, 'a restarted process takes it: earlier tokens verify on both');
  t.equal(await refusedAcross(20), 0);
});
