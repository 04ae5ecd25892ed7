// A soak run (issue 18): recd serving ml-latest-small under mixed traffic for SOAK_MINUTES (default 30),
// reporting each minute's requests per second, p99 per kind of request, answers other than 2xx, and recd's
// resident memory with its JS heap and array buffers, so a leak or a slow drift shows as a trend rather than in one number.
//
//   npm run build && RECD_DATASETS=../shared/datasets node dist/bench/soak/mixed.js      (SOAK_MINUTES=30)
//
// Set-up as bench/http/reco.ts (bench/lib/ml-small.ts: the catalogue and every rating uploaded over HTTP,
// then trained). Traffic: 64 connections split over the kinds below, each request naming a random item,
// user or session of the whole population; writes add new interactions and ratings all along, and a
// retrain is asked for every RETRAIN_EVERY minutes, so training runs under the load now and then.
// Progress goes to stderr, the markdown report to stdout.
import autocannon from 'autocannon';
import os from 'node:os';
import { execSync } from 'node:child_process';
import { startBenchStack } from '../lib/recd-stack.js';
import { loadMovies, upload } from '../lib/ml-small.js';
import { sessionBodies } from '../../test/harness/random-sessions.js';
import { rssOf } from '../lib/rss.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// recd reads it too (startBenchStack passes the environment on): the model the upload waits for.
process.env.RECD_ALS_FACTORS ??= '64';
// recd's JS heap and array buffers a minute (memory-probe.ts inside it), so that growth of the RSS can
// be told apart: the data grow all along (every write adds a rating or an interaction).
const memoryDir = mkdtempSync(join(os.tmpdir(), 'recd-soak-'));
const memoryFile = join(memoryDir, 'memory.jsonl');
process.env.BENCH_NODE_ARGS = `--import=${resolve(dirname(fileURLToPath(import.meta.url)), '../lib/memory-probe.js')}`;
process.env.BENCH_MEMORY_FILE = memoryFile;
process.env.BENCH_MEMORY_SECONDS = '10';
const lastMemory = (): { heapUsed: number; arrayBuffers: number } => {
  try {
    return JSON.parse(readFileSync(memoryFile, 'utf8').trim().split('\n').at(-1)!);
  } catch {
    return { heapUsed: NaN, arrayBuffers: NaN };
  }
};
// SOAK_EACH_SECONDS > 0: before the soak, each kind of request alone on all 64 connections for that long,
// so the mix can be compared with what each kind costs by itself.
const EACH_SECONDS = Number(process.env.SOAK_EACH_SECONDS ?? 0);
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RETRAIN_EVERY = 10;
const USERS = 610;

interface Stream {
  name: string;
  connections: number;
  method: 'GET' | 'POST' | 'PUT';
  path: () => string;
  body?: () => string;
}

const movies = loadMovies().map((m) => m.id);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const user = () => 1 + Math.floor(Math.random() * USERS);
const sessions = sessionBodies({ count: 100_000, ratings: 5, items: movies, seed: 18 });
const STREAMS: Stream[] = [
  { name: 'item-to-items', connections: 20, method: 'GET', path: () => `/v1/recommendation/items/${pick(movies)}/items/` },
  {
    name: 'user-to-items',
    connections: 14,
    method: 'GET',
    path: () => `/v1/recommendation/users/${user()}/items/?exclude_rated_items=true`,
  },
  {
    name: 'session-to-items',
    connections: 8,
    method: 'POST',
    path: () => '/v1/recommendation/sessions/items/',
    body: () => pick(sessions),
  },
  {
    name: 'filtered items',
    connections: 6,
    method: 'GET',
    path: () => `/v1/recommendation/items/${pick(movies)}/items/?filters=genre:eq:Drama`,
  },
  { name: 'item properties', connections: 6, method: 'GET', path: () => `/v1/items/${pick(movies)}/properties/` },
  {
    name: 'interaction',
    connections: 6,
    method: 'POST',
    path: () => `/v1/users/${user()}/interactions/${pick(movies)}/`,
    body: () => '{"interaction_type":"view"}',
  },
  {
    name: 'rating',
    connections: 4,
    method: 'PUT',
    path: () => `/v1/users/${user()}/ratings/${pick(movies)}/`,
    body: () => `{"rating":${1 + Math.floor(Math.random() * 10)}}`,
  },
];

interface Window {
  minute: number;
  rssMiB: number;
  heapMiB: number;
  buffersMiB: number;
  streams: { rps: number; p50: number; p99: number; other: number; errors: number }[];
}

async function oneMinute(
  base: string,
  token: string,
  s: Stream,
  seconds = 60,
  connections = s.connections,
): Promise<Window['streams'][number]> {
  const r = await autocannon({
    url: base.replace(/\/v1$/, ''),
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, method: s.method, path: s.path(), ...(s.body ? { body: s.body() } : {}) }) }],
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, other: r.non2xx, errors: r.errors + r.timeouts };
}

const stack = await startBenchStack();
try {
  const setup = await upload(stack.base.replace(/\/v1$/, ''), stack.token, process.env.RECD_ALS_FACTORS, 414);
  process.stderr.write(`trained: ${JSON.stringify(setup.trained.model.algorithm ?? '')}\n`);
  if (EACH_SECONDS > 0) {
    console.log(`| alone, 64 connections, ${EACH_SECONDS} s | req/s | p50 / p99 ms | non-2xx |\n|---|---:|---|---:|`);
    for (const s of STREAMS) {
      const r = await oneMinute(stack.base, stack.token, s, EACH_SECONDS, 64);
      console.log(`| ${s.name} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.p50} / ${r.p99} | ${r.other} |`);
    }
    console.log('');
  }
  const windows: Window[] = [];
  for (let minute = 1; minute <= MINUTES; minute++) {
    if (minute % RETRAIN_EVERY === 0)
      stack.call('POST', 'tasks/ml_model_retrain/').catch((err) => process.stderr.write(`retrain: ${err}\n`));
    const streams = await Promise.all(STREAMS.map((s) => oneMinute(stack.base, stack.token, s)));
    const rss = await rssOf(stack.pid);
    const memory = lastMemory();
    windows.push({
      minute,
      rssMiB: rss ? rss.rssBytes / 1024 ** 2 : NaN,
      heapMiB: memory.heapUsed,
      buffersMiB: memory.arrayBuffers,
      streams,
    });
    process.stderr.write(
      `minute ${minute}: ${Math.round(streams.reduce((a, s) => a + s.rps, 0))} req/s, RSS ${Math.round(rss ? rss.rssBytes / 1024 ** 2 : NaN)} MiB\n`,
    );
  }
  const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  console.log(
    `### Soak: ${MINUTES} minutes of mixed traffic (git \`${commit}\`, ${new Date().toISOString()}, ${os.cpus()[0]?.model}, ${os.cpus().length} cores)\n`,
  );
  console.log(
    `64 connections (autocannon): ${STREAMS.map((s) => `${s.name} ${s.connections}`).join(', ')}; a retrain asked for every ${RETRAIN_EVERY} minutes.\n`,
  );
  console.log(
    `| minute | RSS MiB | JS heap / array buffers MiB | all req/s | ${STREAMS.map((s) => `${s.name} req/s / p99 ms`).join(' | ')} | non-2xx | errors |`,
  );
  console.log(`|---:|---:|---:|---:|${STREAMS.map(() => '---:').join('|')}|---:|---:|`);
  for (const w of windows) {
    const all = w.streams.reduce((a, s) => a + s.rps, 0);
    const other = w.streams.reduce((a, s) => a + s.other, 0);
    const errors = w.streams.reduce((a, s) => a + s.errors, 0);
    console.log(
      `| ${w.minute} | ${Math.round(w.rssMiB)} | ${w.heapMiB} / ${w.buffersMiB} | ${Math.round(all).toLocaleString('en-US')} | ${w.streams.map((s) => `${Math.round(s.rps).toLocaleString('en-US')} / ${s.p99}`).join(' | ')} | ${other} | ${errors} |`,
    );
  }
} finally {
  await stack.stop();
  rmSync(memoryDir, { recursive: true, force: true });
}
