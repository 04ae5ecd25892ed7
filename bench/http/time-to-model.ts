// From a whole upload to its model (issue 42): each data set uploaded into a database of its own as a
// client would, then a retrain asked for; seconds from that request to the task's COMPLETED, with
// the service's default parameter search. Targets: ml-latest-small and ml-100k ≤ 20 s, a ~0.5M-rating
// upload (a few thousand users and items) ≤ 30 s, search included.
//
//   npm run build && RECD_DATASETS=/path/to/datasets node dist/bench/http/time-to-model.js
//
// BENCH_SETS: comma-separated, of ml-latest-small, ml-100k (u.data) and synthetic (bench/lib/synthetic.ts,
// 3,700 items, 6,000 users, 500,000 ratings unless BENCH_SYNTH_* say otherwise); default all three.
// One recd process, the trainer in (uploads may start automatic retrains; the quiet period holds
// them until the writes settle), RECD_SEARCH_SECONDS as the service's default unless set.
import os from 'node:os';
import { loadConfig } from '../../src/config/env.js';
import { call, ok } from '../lib/api.js';
import { sleep } from '../lib/processes.js';
import { gitState } from '../lib/report.js';
import { startBenchStack } from '../lib/recd-stack.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';
import { uploadOptions, uploadSynthetic } from '../lib/synthetic-upload.js';
import { csvLines, loadMl100kFile } from '../quality/data.js';

process.env.RECD_SEARCH_SECONDS ??= String(loadConfig({}).searchSeconds);
process.env.BENCH_SYNTH_ITEMS ??= '3700';
process.env.BENCH_SYNTH_USERS ??= '6000';
process.env.BENCH_SYNTH_RATINGS ??= '500000';
const SETS = (process.env.BENCH_SETS ?? 'ml-latest-small,ml-100k,synthetic').split(',').map((s) => s.trim());
const BATCH = 16_384;
const TIMEOUT_MS = 600_000;
const ROOT = { email: 'root@bench.local', password: 'Root-password-1' };

interface Row {
  user_id: number;
  item_id: number;
  rating: number;
  timestamp: number;
}

// ml-latest-small's ratings × 2 (0.5–5 becomes 1–10, as bench/lib/ml-small.ts); ml-100k's u.data as they are.
function movieLens(set: string): Row[] {
  if (set === 'ml-latest-small') {
    return csvLines('ml-latest-small/ratings.csv').map((line) => {
      const p = line.split(',');
      return { user_id: Number(p[0]), item_id: Number(p[1]), rating: Number(p[2]) * 2, timestamp: Number(p[3]) };
    });
  }
  const d = loadMl100kFile('u.data');
  return Array.from(d.u, (u, k) => ({ user_id: u + 1, item_id: d.i[k]! + 1, rating: d.r[k]!, timestamp: 880_000_000 + k }));
}

async function main() {
  const stack = await startBenchStack();
  const base = stack.base.replace(/\/v1$/, '');
  const lines: string[] = [];
  try {
    const root = (await ok(base, '', 'POST', '/v1/login/root/', ROOT)).token as string;
    for (const set of SETS) {
      const db = (
        await ok(base, root, 'POST', '/v1/databases/', { name: set, description: '', item_id_type: 'uint32', user_id_type: 'uint32' })
      ).id as string;
      const token = (await ok(base, '', 'POST', '/v1/login/individual/', { ...ROOT, db_id: db })).token as string;
      const t0 = performance.now();
      let ratings: number;
      if (set === 'synthetic') {
        ratings = (await uploadSynthetic(base, token, new Synthetic(synthSizes()), uploadOptions())).ratings;
      } else {
        const rows = movieLens(set);
        for (let k = 0; k < rows.length; k += BATCH)
          await ok(base, token, 'PUT', '/v1/ratings-bulk/', { ratings: rows.slice(k, k + BATCH) });
        ratings = rows.length;
      }
      const uploaded = (performance.now() - t0) / 1000;
      const asked = performance.now();
      const r = await call(base, 'POST', '/v1/tasks/ml_model_retrain/', undefined, token);
      if (r.status !== 200) throw new Error(`retrain: ${r.status} ${r.text}`);
      const id = r.json.task_id as string;
      let task: { status: string; progress: string; start_time: number; end_time: number | null } | undefined;
      for (;;) {
        task = ((await ok(base, token, 'GET', '/v1/tasks/ml_model_retrain/recents/?amt=20')).tasks as { task_id: string }[]).find(
          (t) => t.task_id === id,
        ) as typeof task;
        if (task?.status === 'COMPLETED') break;
        if (task?.status === 'FAILED') throw new Error(`${set}: retrain failed: ${JSON.stringify(task)}`);
        if (performance.now() - asked > TIMEOUT_MS)
          throw new Error(`${set}: no model after ${TIMEOUT_MS / 1000} s: ${JSON.stringify(task)}`);
        await sleep(100);
      }
      const seconds = (performance.now() - asked) / 1000;
      const run = task.end_time! - task.start_time;
      process.stderr.write(`${set}: ${seconds.toFixed(1)} s: ${task.progress}\n`);
      lines.push(
        `| ${set} | ${ratings.toLocaleString('en-US')} | ${uploaded.toFixed(1)} | ${seconds.toFixed(1)} | ${run.toFixed(1)} | ${task.progress} |`,
      );
    }
    console.log("| data set | ratings | upload s | retrain request → COMPLETED s | the run s | the run's record |");
    console.log('|---|---:|---:|---:|---:|---|');
    for (const line of lines) console.log(line);
    console.log(
      `\nRECD_SEARCH_SECONDS ${process.env.RECD_SEARCH_SECONDS}; ${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, ${gitState()}, ${new Date().toISOString()}`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
