// Property-based fuzz of every route of the route table (the requests: test/helpers/fuzz-worker.ts):
// seeded requests with tokens of every role, nearly valid bodies and query strings with one part
// broken (wrong types, huge, deep, negative, NaN-ish values, unknown fields, bad ids), odd headers
// and codecs. Asserts 4xx-not-5xx (503 only where the spec makes it a client's answer), that
// `GET /v1/` stays fast meanwhile, and that memory comes back. A failure prints the seed and the
// requests: FUZZ_SEED=<seed> reruns the same ones, FUZZ_RUNS=<n> sends more, FUZZ_LOG=error shows
// the server's log of each failure (its stack trace).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { ROLES, type Role } from '../../src/contract/roles.js';
import type { Res } from '../helpers/api.js';
import { rootToken, tokenFor } from '../helpers/fixtures.js';
import type { FuzzDone, FuzzReady, FuzzSetup } from '../helpers/fuzz-worker.js';
import { RECO_ENV, trainedDatabase } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const SEED = Number(process.env.FUZZ_SEED ?? 181126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_500);
// Latency under the fuzz is reported (t.comment), not asserted: speed is measured by bench/ scripts
// (bench/http/bombs.ts, bench/soak/mixed.ts), where the machine's load is known. A robustness bound:
const RSS_GROWTH_MAX = 0.2;
// Bigger FUZZ_RUNS (exploring) take longer than the default run.
t.setTimeout(Math.max(120_000, RUNS * 20));

const stack = await startStack({ ...RECO_ENV, LOG_LEVEL: process.env.FUZZ_LOG ?? 'silent' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { db, token: backend } = await trainedDatabase(api, root);
const tokens = { backend } as Record<Role, string>;
for (const role of ROLES) tokens[role] ??= await tokenFor(api, root, role, db);
const need = async (r: Promise<Res>, what: string) => {
  const res = await r;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
};
// Some state for the handlers to walk: a repeated property, an interaction rule, scenarios, a table.
await need(
  api.post('items-properties/', { property_name: 'tags', value_type: 'unicode8', repeated: true, metadata: { m: 1 } }, { token: backend }),
  'tags',
);
await need(api.put('interaction-rules/', { rules: { view: { rating: 6 } } }, { token: backend }), 'rules');
await need(
  api.put('scenarios/profile_to_items/cheap/', { scenario_type: 'case', case: { filters: ['price:lt:10'], amt: 5 } }, { token: backend }),
  'scenario',
);
await need(
  api.put('scenarios/item_to_items/diverse/', { scenario_type: 'case', case: { reranking: ['genre:diversity:1'] } }, { token: backend }),
  'scenario',
);
await need(api.put('precomputed-tables/similar/', { reco_type: 'item_to_items', amt: 5 }, { token: backend }), 'table');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const settle = async () => {
  for (let k = 0; k < 3; k++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage();
};
const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

const setup: FuzzSetup = { base: api.base, db, root, tokens, seed: SEED, runs: RUNS, parallel: 4 };
const client = new Worker(new URL('../helpers/fuzz-worker.js', import.meta.url), { workerData: setup });
t.teardown(() => client.terminate());
const message = <T>() =>
  new Promise<T>((resolve, reject) => {
    client.once('message', resolve);
    client.once('error', reject);
  });
const ready = await message<FuzzReady>();

t.test(
  `${ready.requests} generated requests over ${ready.routes} routes (seed ${SEED}): no 5xx, GET /v1/ keeps answering, memory comes back`,
  async (t) => {
    t.ok(ready.requests >= 10_000, 'at least 10,000 requests');
    // Measured with the client's requests generated and held (in its thread), before any is sent.
    const before = await settle();
    const finished = message<FuzzDone>();
    client.postMessage('go');
    const greetings: number[] = [];
    let notOk = 0;
    let done: FuzzDone | undefined;
    void finished.then((d) => (done = d));
    while (done === undefined) {
      const start = performance.now();
      const r = await api.get('');
      greetings.push(performance.now() - start);
      if (r.status !== 200) notOk++;
      await new Promise((res) => setTimeout(res, 5));
    }
    const result = done as FuzzDone;
    greetings.sort((a, b) => a - b);
    const p99 = greetings[Math.min(greetings.length - 1, Math.floor(greetings.length * 0.99))]!;
    const after = await settle();
    t.comment(`${ready.requests} requests in ${result.seconds.toFixed(1)} s; statuses ${JSON.stringify(result.statuses)}`);
    t.comment(
      `GET /v1/ ×${greetings.length}: p50 ${greetings[Math.floor(greetings.length / 2)]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; RSS ${mib(before.rss)} → ${mib(after.rss)}, heap ${mib(before.heapUsed)} → ${mib(after.heapUsed)}`,
    );
    t.equal(result.failures.length, 0, `no 5xx (seed ${SEED}); the first ones:\n${result.failures.slice(0, 15).join('\n')}`);
    t.equal(notOk, 0, 'GET /v1/ answered 200 throughout');
    t.same(result.unanswered, [], 'every route answered below 500 at least once');
    t.ok(greetings.length >= 50, `GET /v1/ probed throughout (${greetings.length} times)`);
    t.ok(
      after.rss <= before.rss * (1 + RSS_GROWTH_MAX),
      `RSS after (${mib(after.rss)}) within ${RSS_GROWTH_MAX * 100} % of before (${mib(before.rss)})`,
    );
    t.equal((await api.get('')).status, 200, 'the server still answers');
  },
);
