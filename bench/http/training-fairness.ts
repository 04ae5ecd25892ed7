// Fairness between databases' trainings (issue 42): how long a small database's first model takes
// alone, and while a large database's retrain is in each of its phases (fitting, item lists, users'
// lists). Target: a 200,000-item database's training delays a 1k-rating database's first model by at
// most 10 s, in any phase.
//
//   npm run build && node dist/bench/http/training-fairness.js
//
// The large database: a synthetic catalogue (bench/lib/synthetic.ts), BENCH_SYNTH_ITEMS 200,000 items,
// BENCH_SYNTH_USERS 100,000 users, BENCH_SYNTH_RATINGS 1,000,000 ratings unless set, uploaded with the
// trainer at work as a client would, then a retrain asked for. Each small database: 1,000 ratings of 50
// users × 20 items, crossing the first retrain threshold. One recd process (RECD_TRAINING_THREADS: one
// per core), no parameter search unless RECD_SEARCH_SECONDS says so.
import os from 'node:os';
import { call, ok } from '../lib/api.js';
import { sleep } from '../lib/processes.js';
import { gitState } from '../lib/report.js';
import { startBenchStack } from '../lib/recd-stack.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';
import { uploadOptions, uploadSynthetic } from '../lib/synthetic-upload.js';

process.env.BENCH_SYNTH_ITEMS ??= '200000';
process.env.BENCH_SYNTH_USERS ??= '100000';
process.env.BENCH_SYNTH_RATINGS ??= '1000000';
const PHASES: [string, RegExp][] = [
  ['fitting (ALS iterations)', /^iteration/],
  ['item lists', /^item lists/],
  ["users' lists", /^user lists/],
];
const TIMEOUT_MS = 600_000;

async function main() {
  const sizes = synthSizes();
  const stack = await startBenchStack();
  const base = stack.base.replace(/\/v1$/, '');
  const rootLogin = { email: 'root@bench.local', password: 'Root-password-1' };
  try {
    const root = (await ok(base, '', 'POST', '/v1/login/root/', rootLogin)).token as string;
    let made = 0;
    // A new small database and its ratings; seconds from the upload to its first model.
    const smallFirstModel = async (): Promise<number> => {
      const db = (
        await ok(base, root, 'POST', '/v1/databases/', {
          name: `small-${++made}`,
          description: '',
          item_id_type: 'uint32',
          user_id_type: 'uint32',
        })
      ).id as string;
      const token = (await ok(base, '', 'POST', '/v1/login/individual/', { ...rootLogin, db_id: db })).token as string;
      const ratings = Array.from({ length: 1000 }, (_, k) => ({
        user_id: 1 + Math.floor(k / 20),
        item_id: 1 + ((k * 7) % 20) + 20 * (k % 3),
        rating: 1 + (k % 10),
      }));
      const t0 = performance.now();
      await ok(base, token, 'PUT', '/v1/ratings-bulk/', { ratings });
      for (;;) {
        if ((await ok(base, token, 'GET', '/v1/databases/current/status/')).status === 'ready') return (performance.now() - t0) / 1000;
        if (performance.now() - t0 > TIMEOUT_MS) throw new Error('a small database had no model after 600 s');
        await sleep(100);
      }
    };
    const alone = await smallFirstModel();
    process.stderr.write(`small database alone: ${alone.toFixed(1)} s\n`);

    process.stderr.write(`large: ${sizes.items} items, ${sizes.users} users, ${sizes.ratings} ratings\n`);
    await uploadSynthetic(base, stack.token, new Synthetic(sizes), uploadOptions());
    const asked = await call(base, 'POST', '/v1/tasks/ml_model_retrain/', undefined, stack.token);
    if (asked.status !== 200) throw new Error(`retrain: ${asked.status} ${asked.text}`);
    const run = asked.json.task_id as string;
    const record = async () =>
      (
        (await ok(base, stack.token, 'GET', '/v1/tasks/ml_model_retrain/recents/?amt=20')).tasks as {
          task_id: string;
          status: string;
          progress: string;
        }[]
      ).find((x) => x.task_id === run);
    const rows: string[] = [];
    for (const [phase, pattern] of PHASES) {
      const t0 = performance.now();
      let r = await record();
      while (r?.status !== 'COMPLETED' && !(r?.status === 'RUNNING' && pattern.test(r.progress))) {
        if (r?.status === 'FAILED' || performance.now() - t0 > TIMEOUT_MS)
          throw new Error(`the large run never reached ${phase}: ${JSON.stringify(r)}`);
        await sleep(200);
        r = await record();
      }
      if (r?.status === 'COMPLETED') {
        rows.push(`| ${phase} | – | – | the large run ended before this phase could be caught |`);
        continue;
      }
      const at = r!.progress;
      const s = await smallFirstModel();
      const after = await record();
      rows.push(
        `| ${phase} | ${s.toFixed(1)} | ${(s - alone).toFixed(1)} | large run at "${at}" when the small upload began, "${after?.status === 'RUNNING' ? after.progress : after?.status}" when its model came |`,
      );
    }
    console.log(`small database's first model alone: ${alone.toFixed(1)} s\n`);
    console.log("| large database's retrain in | small's first model s | delay s | note |");
    console.log('|---|---:|---:|---|');
    for (const row of rows) console.log(row);
    console.log(
      `\nlarge: ${sizes.items} items, ${sizes.users} users, ${sizes.ratings} ratings; ${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, ${gitState()}, ${new Date().toISOString()}`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
