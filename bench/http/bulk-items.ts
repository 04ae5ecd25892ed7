// Bulk item ingest over JSON: 100,000 items × 10 properties in batches of 500 with concurrent
// clients against a recd child process on a private redis-server. Prints items/s (median of rounds).
// Usage: npx tsc -p . && node dist/bench/http/bulk-items.js   (BENCH_ITEMS, BENCH_CLIENTS, BENCH_ROUNDS)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startRedisServer } from '../../src/store/redis-server.js';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/cli.js');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const BATCH = 500;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROPS = [
  ['price', 'float'],
  ['stock', 'int32'],
  ['rating', 'float32'],
  ['available', 'bool'],
  ['title', 'unicode64'],
  ['brand', 'unicode16'],
  ['colour', 'unicode16'],
  ['tags', 'unicode16', true],
  ['year', 'uint16'],
  ['weight', 'float64'],
] as const;

async function call(base: string, method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function batch(round: number, start: number): string {
  const items = [];
  for (let i = start; i < Math.min(start + BATCH, ITEMS); i++) {
    items.push({
      item_id: round * ITEMS + i + 1,
      price: (i % 1000) / 10,
      stock: i % 500,
      rating: (i % 50) / 5,
      available: i % 3 === 0,
      title: `Product number ${i}`,
      brand: `brand-${i % 200}`,
      colour: ['red', 'green', 'blue', 'black'][i % 4],
      tags: [`t${i % 7}`, `t${i % 11}`],
      year: 1990 + (i % 35),
      weight: i / 7,
    });
  }
  return JSON.stringify({ items });
}

async function main() {
  const dir = mkdtempSync(join(os.tmpdir(), 'recd-bench-bulk-'));
  const redis = await startRedisServer(join(dir, 'redis'));
  const port = await freePort();
  const recd = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, PORT: String(port), REDIS_URL: redis.url, RECD_ROOT_EMAIL: 'root@bench.local', RECD_ROOT_PASSWORD: 'Root-password-1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/v1`;
  try {
    for (let i = 0; ; i++) {
      try {
        await call(base, 'GET', '', undefined);
        break;
      } catch {
        if (i > 100) throw new Error('recd did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const root = (await call(base, 'POST', 'login/root/', { email: 'root@bench.local', password: 'Root-password-1' })).token;
    const db = (await call(base, 'POST', 'databases/', { name: 'bench', description: '', item_id_type: 'uint32', user_id_type: 'uint32' }, root)).id;
    const token = (await call(base, 'POST', 'login/individual/', { email: 'root@bench.local', password: 'Root-password-1', db_id: db })).token;
    for (const [name, type, repeated] of PROPS) await call(base, 'POST', 'items-properties/', { property_name: name, value_type: type, repeated: repeated ?? false }, token);
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bodies: string[] = [];
      for (let s = 0; s < ITEMS; s += BATCH) bodies.push(batch(round, s));
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < bodies.length) {
            const body = bodies[next++]!;
            const res = await fetch(`${base}/items-bulk/properties/`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
            if (res.status !== 200) throw new Error(`bulk PUT: ${res.status} ${await res.text()}`);
            await res.arrayBuffer();
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      rates.push(ITEMS / seconds);
      console.log(`round ${round + 1}: ${ITEMS} items in ${seconds.toFixed(2)} s = ${Math.round(ITEMS / seconds)} items/s`);
    }
    rates.sort((a, b) => a - b);
    console.log(
      `median ${Math.round(rates[Math.floor(rates.length / 2)]!)} items/s (${ITEMS} items x ${PROPS.length} properties, batches of ${BATCH}, ${CLIENTS} clients, ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()})`,
    );
  } finally {
    recd.kill('SIGTERM');
    await new Promise((r) => recd.once('exit', r));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
