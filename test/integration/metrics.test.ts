// GET /metrics: off unless RECD_METRICS_PORT is set; then on a listener of its own (not the API's
// port), optionally behind a bearer token; requests counted with their latency by route group and
// status class, including refusals before routing and bodies over the cap.
import t from 'tap';
import { uid } from '../helpers/feedback.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const TOKEN = 'scrape-secret-0123456789';

// The value of one sample line, e.g. sample(text, 'recd_http_request_duration_seconds_count', {group: 'ratings-bulk', status: '2xx'}).
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [series, value] = line.split(' ');
    const body = series!.slice(name.length + 1, -1);
    const got = Object.fromEntries(body.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 2, -1)]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(value);
  }
  return undefined;
}

t.test('no metrics unless RECD_METRICS_PORT is set: the API port does not serve them either', async (t) => {
  const s = await startStack();
  t.teardown(() => s.close());
  t.equal(s.app.metricsPort, undefined, 'no metrics listener');
  const res = await fetch(`http://127.0.0.1:${s.app.port}/metrics`);
  t.equal(res.status, 404, 'not on the API port');
  await res.arrayBuffer();
});

t.test('a listener of its own behind a bearer token, counting requests by group and status class', async (t) => {
  const s = await startStack({ RECD_METRICS_PORT: '0', RECD_METRICS_TOKEN: TOKEN, RECD_MAX_BODY_BYTES: '2048' });
  t.teardown(() => s.close());
  const port = s.app.metricsPort!;
  t.ok(port > 0 && port !== s.app.port, 'its own port');
  const url = `http://127.0.0.1:${port}/metrics`;
  const scrape = async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  for (const auth of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
    const res = await fetch(url, { headers: auth === undefined ? {} : { authorization: auth } });
    t.equal(res.status, 401, `refused: ${auth ?? 'no header'}`);
    t.equal(res.headers.get('www-authenticate'), 'Bearer');
    await res.arrayBuffer();
  }
  const other = await fetch(`http://127.0.0.1:${port}/other`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(other.status, 404);
  await other.arrayBuffer();

  const before = await scrape();
  const count = (text: string, group: string, status: string) =>
    sample(text, 'recd_http_request_duration_seconds_count', { group, status }) ?? 0;
  t.equal(count(before, 'ratings-bulk', '2xx'), 0, 'nothing counted yet');
  t.match(before, /^nodejs_eventloop_lag_p99_seconds \d/m, 'event-loop delay');
  t.notMatch(before, /^nodejs_gc_/m, 'no GC series: no observer of every collection on the serving process');

  const root = await rootToken(s.api);
  const db = await createDatabase(s.api, root);
  const backend = await tokenFor(s.api, root, 'backend', db);
  const mid = await scrape();
  const ratings = { ratings: [{ user_id: uid(1), item_id: 1, rating: 5, timestamp: 1_700_000_000 }] };
  for (let i = 0; i < 3; i++) t.equal((await s.api.put('ratings-bulk/', ratings, { token: backend })).status, 200);
  t.equal((await s.api.put('ratings-bulk/', ratings, { token: 'not-a-token' })).status, 401);
  const big = { ratings: Array.from({ length: 100 }, (_, i) => ({ user_id: uid(i), item_id: 1, rating: 5, timestamp: 1_700_000_000 })) };
  t.equal((await s.api.put('ratings-bulk/', big, { token: backend })).status, 413, 'over the body cap');
  t.equal((await s.api.get('no-such-thing/', { token: backend })).status, 404);
  t.equal((await s.api.get('')).status, 200, 'the greeting at the root');
  t.equal((await s.api.get('recommendation/items/1/items/', { token: backend })).status, 503, 'no model yet');

  const after = await scrape();
  t.equal(count(after, 'ratings-bulk', '2xx') - count(mid, 'ratings-bulk', '2xx'), 3, 'three stored');
  t.equal(count(after, 'ratings-bulk', '4xx') - count(mid, 'ratings-bulk', '4xx'), 2, 'the refused token and the body over the cap');
  t.equal(count(after, 'other', '4xx') - count(mid, 'other', '4xx'), 1, 'no route: group other');
  t.equal(count(after, 'root', '2xx') - count(mid, 'root', '2xx'), 1, 'the greeting: group root');
  t.equal(count(after, 'recommendation', '5xx') - count(mid, 'recommendation', '5xx'), 1);
  const fast = sample(after, 'recd_http_request_duration_seconds_bucket', { group: 'ratings-bulk', status: '2xx', le: '10' })!;
  const all = sample(after, 'recd_http_request_duration_seconds_bucket', { group: 'ratings-bulk', status: '2xx', le: '+Inf' })!;
  t.equal(fast, all, 'latencies observed in seconds (all under 10 s)');
  t.ok(sample(after, 'recd_http_request_duration_seconds_sum', { group: 'ratings-bulk', status: '2xx' })! > 0, 'a latency sum');
});

t.test('without a token the listener answers anyone who reaches it', async (t) => {
  const s = await startStack({ RECD_METRICS_PORT: '0' });
  t.teardown(() => s.close());
  const res = await fetch(`http://127.0.0.1:${s.app.metricsPort}/metrics`);
  t.equal(res.status, 200);
  t.match(await res.text(), /# TYPE recd_http_request_duration_seconds histogram/);
});

t.test(
  'bulk rows ingested: ratings and interactions (users and sessions), a retried key counted once, single writes not at all',
  async (t) => {
    const s = await startStack({ RECD_METRICS_PORT: '0' });
    t.teardown(() => s.close());
    const scrape = async () => (await fetch(`http://127.0.0.1:${s.app.metricsPort}/metrics`)).text();
    const rows = async (kind: string) => sample(await scrape(), 'recd_bulk_rows_ingested_total', { kind }) ?? 0;
    const root = await rootToken(s.api);
    const db = await createDatabase(s.api, root, { item_id_type: 'uint32', user_id_type: 'uuid', session_id_type: 'uuid' });
    const token = await tokenFor(s.api, root, 'backend', db);
    const seen = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ item_id: i + 1, interaction_type: 'detail_view', timestamp: 1_700_000_000 + i }));
    t.equal(await rows('interactions'), 0);
    t.equal(
      (await s.api.post('interactions-bulk/', { interactions: seen(4).map((x) => ({ ...x, user_id: uid(1) })) }, { token })).status,
      200,
    );
    t.equal((await s.api.post(`users/${uid(2)}/interactions-bulk/`, { interactions: seen(3) }, { token })).status, 200);
    t.equal((await s.api.post(`sessions/${uid(3)}/interactions-bulk/`, { interactions: seen(2) }, { token })).status, 200);
    const keyed = { token, headers: { 'idempotency-key': 'metrics-retry-1' } };
    for (let i = 0; i < 2; i++)
      t.equal((await s.api.post(`users/${uid(4)}/interactions-bulk/`, { interactions: seen(5) }, keyed)).status, 200);
    t.equal((await s.api.post(`users/${uid(5)}/interactions/7/`, { interaction_type: 'purchase' }, { token })).status, 200);
    t.equal(
      (await s.api.post('interactions-bulk/', { interactions: [{ user_id: 'not-a-uuid', item_id: 1, interaction_type: 'x' }] }, { token }))
        .status,
      400,
    );
    t.equal(
      await rows('interactions'),
      4 + 3 + 2 + 5,
      'the bulk rows, the retry with the same key once, the single write and the refused one not',
    );
    t.equal(
      (
        await s.api.put(
          'ratings-bulk/',
          {
            ratings: [
              { user_id: uid(1), item_id: 1, rating: 5 },
              { user_id: uid(1), item_id: 2, rating: 4 },
            ],
          },
          { token },
        )
      ).status,
      200,
    );
    t.equal(await rows('ratings'), 2);
  },
);
