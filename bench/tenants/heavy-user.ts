// One tenant's heaviest reads against another tenant's latency: tenant A holds a 100,000-item catalogue
// and a user of 200,000 ratings; two clients hammer one of A's heavy reads while tenant B's random-user
// reads are measured (p50, p99), beside a run of B alone; Redis's slow log gives the longest command of
// each run. Issue 41's target: B's p99 ≤ 50 ms and no command over 50 ms while A is hammered.
// B's throughput is also given as a ratio to a bare uWebSockets.js hello-world measured in the same run.
// Usage: npm run build && node dist/bench/tenants/heavy-user.js   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ONLY)
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import os from 'node:os';
import { execSync } from 'node:child_process';
import { ok } from '../lib/api.js';
import { launch, stop, waitForLine } from '../lib/processes.js';
import { HELLO, HOST } from '../lib/servers.js';
import { freePort } from '../../src/store/redis-server.js';
import { startBenchStack } from '../lib/recd-stack.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8); // tenant B's
const ITEMS = 100_000;
const HEAVY_RATINGS = 200_000;
const B_USERS = 2_000;

async function main() {
  // The trainer is kept out (it polls once an hour): A's uploads cross retrain thresholds, and its
  // 200,000 items' lists would take the cores for minutes. This bench measures one tenant's reads
  // against another's; training beside serving is bench/http/learning.ts's.
  process.env.RECD_TRAINING_POLL_MS ??= '3600000';
  const stack = await startBenchStack();
  const redis = new Redis(stack.redisUrl);
  try {
    const a = stack.token;
    // ok() of bench/lib/api.ts with this stack's base, token first.
    const json = (method: string, path: string, token: string, body?: unknown) =>
      ok(`${stack.base}/`, token, method, path, body, [200, 204]);
    // Tenant A: the catalogue and the heavy user.
    await json('POST', 'items-properties/', a, { property_name: 'title', value_type: 'unicode128' });
    await json('POST', 'items-properties/', a, { property_name: 'tags', value_type: 'unicode32', repeated: true });
    for (let s = 1; s <= ITEMS; s += 1000) {
      const items = Array.from({ length: 1000 }, (_, k) => ({
        item_id: s + k,
        title: `item number ${s + k} of the heavy tenant`,
        tags: [`t${(s + k) % 17}`, `u${(s + k) % 29}`],
      }));
      await json('PUT', 'items-bulk/properties/', a, { items });
    }
    for (let s = 1; s <= HEAVY_RATINGS; s += 16_384) {
      const ratings = Array.from({ length: Math.min(16_384, HEAVY_RATINGS + 1 - s) }, (_, k) => ({
        item_id: s + k,
        rating: 1 + ((s + k) % 10) * 0.9,
        timestamp: s + k,
      }));
      await json('PUT', 'users/1/ratings/', a, { ratings });
    }
    // Tenant B: a database of its own, small, read by random users.
    const login = { email: 'root@bench.local', password: 'Root-password-1' };
    const root = (await json('POST', 'login/root/', '', login)).token as string;
    const dbB = (await json('POST', 'databases/', root, { name: 'other', description: '', item_id_type: 'uint32', user_id_type: 'uint32' }))
      .id as string;
    const b = (await json('POST', 'login/individual/', '', { ...login, db_id: dbB })).token as string;
    for (let s = 1; s <= B_USERS; s += 500) {
      const ratings = [];
      for (let u = s; u < s + 500; u++)
        for (let k = 0; k < 10; k++)
          ratings.push({ user_id: u, item_id: 1 + ((u * 31 + k * 7) % 1000), rating: 1 + (k % 10), timestamp: 1e9 + k });
      await json('PUT', 'ratings-bulk/', b, { ratings });
    }
    await json('GET', 'items-bulk/properties/?amt=1', a); // builds the process's view of A's catalogue

    const hammers: [string, string][] = [
      ['none (B alone)', ''],
      ['GET users/<200k-rating user>/ratings/?amt=1', 'users/1/ratings/?amt=1'],
      ['GET users/<200k-rating user>/ratings/?amt=2048&page=50', 'users/1/ratings/?amt=2048&page=50'],
      ['GET ratings-bulk/?amt=2048', 'ratings-bulk/?amt=2048'],
      ['GET ratings-bulk/?amt=16384', 'ratings-bulk/?amt=16384'],
      ['GET items-bulk/properties/?amt=500', 'items-bulk/properties/?amt=500'],
    ];
    const longestCommands: string[] = [];
    // The same-run baseline: a bare uWebSockets.js hello-world under B's load alone.
    const hello = launch('hello-uws', [HELLO, String(await freePort())], { ...process.env });
    const helloPort = Number((await waitForLine(hello, /^(\d+)$/m, 10_000))[1]);
    const base = await autocannon({ url: `http://${HOST}:${helloPort}/`, connections: CONNECTIONS, duration: SECONDS });
    await stop(hello);
    console.log(
      `hello-world, ${CONNECTIONS} connections: ${Math.round(base.requests.average)} req/s, p50 ${base.latency.p50} ms, p99 ${base.latency.p99} ms\n`,
    );
    console.log(
      '| two clients hammer (tenant A) | A req/s | B req/s | B × hello-world | B p50 ms | B p99 ms | B max ms | B non-2xx | Redis commands ≥ 10 ms | longest command ms |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    // BENCH_ONLY=<text>: only the rows whose label holds it (B alone always runs).
    const only = process.env.BENCH_ONLY;
    for (const [label, path] of hammers.filter(([l, p]) => !only || !p || l.includes(only))) {
      await redis.config('SET', 'slowlog-log-slower-than', '1000');
      await redis.slowlog('RESET');
      const other = autocannon({
        url: `${stack.base}/users/1/ratings/?amt=10`,
        headers: { authorization: `Bearer ${b}` },
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          { setupRequest: (req: any) => ({ ...req, path: `/v1/users/${1 + Math.floor(Math.random() * B_USERS)}/ratings/?amt=10` }) },
        ],
      } as any);
      const heavy = path
        ? autocannon({ url: `${stack.base}/${path}`, headers: { authorization: `Bearer ${a}` }, connections: 2, duration: SECONDS })
        : undefined;
      const [rb, ra] = await Promise.all([other, heavy]);
      const slow = (await redis.slowlog('GET', '1000')) as [number, number, number, string[]][];
      const top = slow.reduce<[number, number, number, string[]] | undefined>((m, e) => (!m || e[2] > m[2] ? e : m), undefined);
      const longest = (top?.[2] ?? 0) / 1000;
      if (top) longestCommands.push(`${label}: ${longest.toFixed(1)} ms, ${top[3].slice(0, 2).join(' ').slice(0, 60)}`);
      console.log(
        `| ${label} | ${ra ? Math.round(ra.requests.average) : '–'} | ${Math.round(rb.requests.average)} | ${(rb.requests.average / base.requests.average).toFixed(3)} | ${rb.latency.p50} | ${rb.latency.p99} | ${rb.latency.max} | ${rb.non2xx} | ${slow.filter((e) => e[2] >= 10_000).length} | ${longest.toFixed(1)} |`,
      );
    }
    console.log(`\nlongest command of each run:\n${longestCommands.map((l) => `- ${l}`).join('\n')}`);
    let commit = '';
    try {
      commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    } catch {}
    console.log(
      `\n${SECONDS} s a run; tenant B: ${CONNECTIONS} connections, random users of ${B_USERS}; ${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, commit ${commit}, ${new Date().toISOString()}`,
    );
  } finally {
    redis.disconnect();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
