// Serving beside learning (issue 42): random-id user-to-items while nothing trains, during a retrain of
// the served database, and in the seconds after a burst of interactions on those users, each against a
// bare uWebSockets.js hello-world in the same run.
//
//   npm run build && node dist/bench/http/learning.js
//
// Data: a synthetic catalogue (bench/lib/synthetic.ts), BENCH_SYNTH_ITEMS 20,000 items, BENCH_SYNTH_USERS
// 100,000 users, BENCH_SYNTH_RATINGS 2,000,000 ratings unless set, uploaded and trained (no parameter
// search unless RECD_SEARCH_SECONDS says so). Runs of BENCH_SECONDS (8) at BENCH_CONNECTIONS (64):
//   idle       U, nothing training
//   retrain    U while an explicit retrain runs, once per nice value of BENCH_NICES (default `0,19`:
//              training threads at the serving priority, then lowered; recd restarted for each)
//   burst      BENCH_BURST_CLIENTS (4) clients posting interactions (`purchase`, 1,000 a request) of
//              random users of the first BENCH_BURST_USERS (3,000) and random items, for BENCH_SECONDS
//   after      U over those users, in the seconds right after the burst (no retrain started)
//   steady     the same again, once the burst is BENCH_SETTLE_SECONDS (10) old
// BENCH_BURST_TRAINER=0 keeps the trainer out from the burst on (the burst crosses a retrain threshold).
// Targets (issue 42): retrain ≥ 0.9× idle req/s and p99 ≤ 1.5× idle; after ≥ 0.8× steady req/s, p99 ≤ 10 ms.
import { call, ok } from '../lib/api.js';
import { runAutocannon, type Measured } from '../lib/load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { launch, sleep, stop, waitForLine } from '../lib/processes.js';
import { gitState } from '../lib/report.js';
import { retrain, settle } from '../lib/retrain.js';
import { HELLO, HOST } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { startBenchStack } from '../lib/recd-stack.js';
import { freePort } from '../../src/store/redis-server.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';
import { uploadOptions, uploadSynthetic } from '../lib/synthetic-upload.js';
import os from 'node:os';

process.env.BENCH_SYNTH_ITEMS ??= '20000';
process.env.BENCH_SYNTH_USERS ??= '100000';
process.env.BENCH_SYNTH_RATINGS ??= '2000000';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = settings.connections;
const NICES = (process.env.BENCH_NICES ?? '0,19')
  .split(',')
  .filter((s) => s.trim() !== '')
  .map(Number);
const BURST_CLIENTS = Number(process.env.BENCH_BURST_CLIENTS ?? 4);
const BURST_USERS = Number(process.env.BENCH_BURST_USERS ?? 3000);
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
const FACTORS = process.env.RECD_ALS_FACTORS || '32';

interface Row {
  label: string;
  m: Measured;
  note: string;
}

async function main() {
  const sizes = synthSizes();
  const data = new Synthetic(sizes);
  const stack = await startBenchStack();
  const rows: Row[] = [];
  try {
    const base = stack.base.replace(/\/v1$/, '');
    process.stderr.write(`synthetic: ${sizes.items} items, ${sizes.users} users, ${sizes.ratings} ratings\n`);
    await uploadSynthetic(base, stack.token, data, uploadOptions());
    await retrain(base, stack.token, FACTORS, sizes.ratings);
    const auth = { authorization: `Bearer ${stack.token}` };
    const users = (max: number): Target => ({
      url: `${stack.base}/recommendation/users/1/items/?exclude_rated_items=true`,
      method: 'GET',
      headers: auth,
      randomPath: { prefix: '/v1/recommendation/users/', max, suffix: '/items/?exclude_rated_items=true' },
    });
    const run = (t: Target) => runAutocannon(t, 1, SECONDS);

    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const h = await runAutocannon({ url: `http://${HOST}:${helloPort}/`, method: 'GET', headers: {} }, 1, SECONDS);
    await stop(hello);
    rows.push({ label: 'hello-world', m: h, note: '' });

    rows.push({ label: 'idle: U, nothing training', m: await run(users(sizes.users)), note: '' });
    for (const nice of NICES) {
      await stack.restart({ RECD_TRAINING_NICE: String(nice) });
      await run(users(sizes.users)); // the restarted process loads the model and warms up
      const task = (await ok(base, stack.token, 'POST', '/v1/tasks/ml_model_retrain/')).task_id as string;
      const state = async () =>
        (await ok(base, stack.token, 'GET', '/v1/tasks/ml_model_retrain/recents/?amt=5')).tasks.find(
          (t: { task_id: string }) => t.task_id === task,
        );
      while ((await state())?.status !== 'RUNNING') await sleep(100);
      const m = await run(users(sizes.users));
      const after = await state();
      rows.push({
        label: `retrain: U during a retrain, training threads at nice ${nice}`,
        m,
        note: `the retrain ${after?.status === 'RUNNING' ? `still running at the end (${after.progress})` : `ended before the run did (${after?.status})`}`,
      });
      await settle(base, stack.token, 'ml_model_retrain', 600_000);
    }

    // BENCH_BURST_TRAINER=0: the trainer kept out from here (the burst crosses a retrain threshold),
    // to tell what the changed users cost from what the retrain they trigger costs.
    if (process.env.BENCH_BURST_TRAINER === '0') {
      await stack.restart({ RECD_TRAINING_POLL_MS: '3600000' });
      await run(users(sizes.users));
    }
    const burst = await interactionsBurst(stack.base, stack.token, sizes.items);
    const after = await run(users(BURST_USERS));
    rows.push({
      label: `burst: ${BURST_CLIENTS} clients posting interactions of ${BURST_USERS} users`,
      m: burst.m,
      note: `${burst.interactions} interactions in ${SECONDS} s`,
    });
    rows.push({ label: `after: U over those users, right after the burst`, m: after, note: '' });
    await sleep(SETTLE_SECONDS * 1000);
    rows.push({ label: `steady: U over those users, ${SETTLE_SECONDS} s later`, m: await run(users(BURST_USERS)), note: '' });

    const idle = rows[1]!.m,
      steady = rows[rows.length - 1]!.m;
    console.log(`| run (${SECONDS} s, ${CONNECTIONS} connections) | req/s | × hello-world | p50 ms | p99 ms | non-2xx | against | note |`);
    console.log('|---|---:|---:|---:|---:|---:|---|---|');
    for (const r of rows) {
      const vs = r.label.startsWith('retrain')
        ? `${(r.m.rps / idle.rps).toFixed(2)}× idle req/s, p99 ${(r.m.p99ms / idle.p99ms).toFixed(2)}× idle`
        : r.label.startsWith('after')
          ? `${(r.m.rps / steady.rps).toFixed(2)}× steady req/s`
          : '';
      console.log(
        `| ${r.label} | ${Math.round(r.m.rps)} | ${(r.m.rps / h.rps).toFixed(3)} | ${r.m.p50ms} | ${r.m.p99ms} | ${r.m.non2xx} | ${vs} | ${r.note} |`,
      );
    }
    console.log(
      `\n${sizes.items} items, ${sizes.users} users, ${sizes.ratings} ratings, ${FACTORS} factors; ${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, ${gitState()}, ${new Date().toISOString()}`,
    );
  } finally {
    await stack.stop();
  }
}

// BURST_CLIENTS clients posting 1,000 purchases each request, of random users 1..BURST_USERS and random
// items, for SECONDS; the write side's figures and how many interactions went in.
async function interactionsBurst(base: string, token: string, items: number): Promise<{ m: Measured; interactions: number }> {
  const end = Date.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let non2xx = 0;
  let interactions = 0;
  let seq = 0;
  const client = async () => {
    while (Date.now() < end) {
      const now = Date.now() / 1000;
      const rows = Array.from({ length: 1000 }, () => ({
        user_id: 1 + Math.floor(Math.random() * BURST_USERS),
        item_id: 1 + Math.floor(Math.random() * items),
        interaction_type: 'purchase',
        timestamp: now - 1e-6 * seq++,
      }));
      const t0 = performance.now();
      const res = await call(base, 'POST', '/interactions-bulk/', { interactions: rows }, token);
      latencies.push(performance.now() - t0);
      if (res.status >= 300) non2xx++;
      else interactions += rows.length;
    }
  };
  await Promise.all(Array.from({ length: BURST_CLIENTS }, client));
  latencies.sort((a, b) => a - b);
  const q = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN);
  return {
    m: {
      rps: latencies.length / SECONDS,
      p50ms: q(0.5),
      p99ms: q(0.99),
      requests: latencies.length,
      non2xx,
      errors: 0,
      unanswered: 0,
      generatorCpuPct: undefined,
      statusCodes: '',
    },
    interactions,
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
