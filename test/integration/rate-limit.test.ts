// Per-organisation rate limits: 429 TooManyRequests with retry_after, shared by every process.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { ERROR_TABLE } from '../../src/errors/table.js';
import { errorOf, rootToken } from '../helpers/fixtures.js';
import { startPair } from '../helpers/stack.js';

const LIMIT = 20;
const pair = await startPair({ RECD_RATE_LIMIT_PER_SECOND: String(LIMIT) });
t.teardown(() => pair.close());
const { a, b } = pair;
const token = await rootToken(a.api);

// Starts a burst at the beginning of a one-second window, so the whole check fits in it.
async function windowStart(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

t.test('beyond the budget: 429 RATE_LIMIT_OVERFLOW with retry_after, then served again', async (t) => {
  await windowStart();
  const statuses: number[] = [];
  let refused: Awaited<ReturnType<typeof a.api.post>> | undefined;
  for (let i = 0; i < LIMIT + 5; i++) {
    const r = await a.api.post('login/jwt/', undefined, { token });
    statuses.push(r.status);
    if (r.status === 429) refused ??= r;
  }
  t.equal(statuses.filter((s) => s === 200).length, LIMIT, 'exactly the budget is served within one process');
  t.same(errorOf(refused!), {
    status: 429,
    code: ERROR_TABLE.TooManyRequests.code,
    errorName: 'TooManyRequests',
    name: 'RATE_LIMIT_OVERFLOW',
  });
  const retry = refused!.body.error_data.retry_after;
  t.ok(retry > 0 && retry <= 1, `retry_after ${retry} is within the window`);
  t.equal(refused!.headers['retry-after'], '1');
  await new Promise((r) => setTimeout(r, retry * 1000 + 20));
  t.equal((await a.api.post('login/jwt/', undefined, { token })).status, 200);
});

t.test('the budget is shared by every process on the same Redis', async (t) => {
  t.equal((await b.api.post('login/jwt/', undefined, { token })).status, 200, 'b serves the organisation');
  await windowStart();
  for (let i = 0; i < LIMIT; i++) t.equal((await a.api.post('login/jwt/', undefined, { token })).status, 200);
  await new Promise((r) => setTimeout(r, 200)); // both processes flush and learn the total
  const other = await b.api.post('login/jwt/', undefined, { token });
  t.equal(other.status, 429, 'the other process refuses once the organisation spent its budget');
});

t.test('requests without a token (logins, GET /) are not counted against an organisation', async (t) => {
  await windowStart();
  for (let i = 0; i < LIMIT + 5; i++) t.equal((await a.api.get('')).status, 200);
});
