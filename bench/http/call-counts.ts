// What call counting costs (issue 8: at most 5 % of req/s): two recd processes on one private Redis,
// one counting (the default) and one with RECD_CALL_COUNTS=0, measured interleaved in the same run on
// `GET /v1/` (public: nothing to count) and on `GET /v1/items/4242/properties/` (authenticated,
// answered from memory: counted, and cheap enough that counting would show).
//
//   npx tsc -p . && node dist/bench/http/call-counts.js     (BENCH_SECONDS=10 BENCH_ROUNDS=3 by default)
//
// Progress goes to stderr, the markdown report to stdout.
import os from 'node:os';
import { freePort } from '../../src/store/redis-server.js';
import { backendToken, seedItems } from '../lib/api.js';
import { waitForQuiet } from '../lib/cpu.js';
import { runAutocannon, runWrk, wrkAvailable, type Tool } from '../lib/load.js';
import type { Target } from '../../test/harness/wrk-script.js';
import { waitForHttp } from '../lib/processes.js';
import { benchProgram } from '../lib/program.js';
import { fmt, fmtInt, gitState, median } from '../lib/report.js';
import { HOST, launchRecd, ROOT_EMAIL, ROOT_PASSWORD } from '../lib/servers.js';
import { settings } from '../lib/settings.js';

await benchProgram('call-counts', async (redis, dir) => {
  const tree = gitState();
  const tools: Tool[] = settings.wrk && wrkAvailable() ? ['autocannon', 'wrk'] : ['autocannon'];
  const start = async (counting: boolean) => {
    const port = await freePort();
    const m = launchRecd(`recd-${counting ? 'counting' : 'not-counting'}`, {
      port,
      redisUrl: redis.url,
      env: { RECD_CALL_COUNTS: counting ? '1' : '0' },
      nodeArgs: [],
      logLevel: 'warn',
    });
    await waitForHttp(m, `http://${HOST}:${port}/v1/`, 20_000);
    return { m, base: `http://${HOST}:${port}`, counting };
  };
  const on = await start(true),
    off = await start(false);
  const { token } = await backendToken(on.base);
  await seedItems(on.base, token);
  await fetch(`${off.base}/v1/items/4242/properties/`, { headers: { authorization: `Bearer ${token}` } }); // its view too
  await new Promise((r) => setTimeout(r, 1500));
  const paths = [
    { id: 'b', label: '`GET /v1/`', path: '/v1/', auth: false },
    { id: 'e', label: '`GET /v1/items/4242/properties/` (Bearer)', path: '/v1/items/4242/properties/', auth: true },
  ];
  const target = (base: string, p: (typeof paths)[number]): Target => ({
    url: base + p.path,
    method: 'GET',
    headers: p.auth ? { authorization: `Bearer ${token}` } : {},
  });
  const rows: { path: string; tool: Tool; counting: boolean; rps: number; p99: number }[] = [];
  const pids = [on.m.child.pid, off.m.child.pid, redis.pid];
  for (let round = 1; round <= settings.rounds; round++) {
    for (const tool of tools) {
      for (const p of paths) {
        // Alternate which process goes first, so neither always runs on a warmer machine.
        for (const s of round % 2 === 1 ? [on, off] : [off, on]) {
          await waitForQuiet(pids);
          const t = target(s.base, p);
          const m = tool === 'autocannon' ? await runAutocannon(t, 1, settings.seconds) : await runWrk(dir, t, 1, settings.seconds);
          if (m.non2xx > 0 || m.errors > 0) throw new Error(`${p.path} ${tool}: ${m.non2xx} non-2xx, ${m.errors} errors`);
          rows.push({ path: p.id, tool, counting: s.counting, rps: m.rps, p99: m.p99ms });
          process.stderr.write(
            `round ${round} ${tool.padEnd(10)} ${p.id} counting=${s.counting ? 'on ' : 'off'}: ${fmtInt(m.rps).padStart(8)} req/s p99 ${fmt(m.p99ms, 2)} ms\n`,
          );
        }
      }
    }
  }
  const counted = await fetch(`${on.base}/v1/call-counts/historical/ENDPOINTS/`, {
    headers: {
      authorization: `Bearer ${(await (await fetch(`${on.base}/v1/login/root/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ROOT_EMAIL, password: ROOT_PASSWORD }) })).json()).token}`,
    },
  });
  const series = ((await counted.json()) as { series: { key: string; counts: number[] }[] }).series;
  const items = series.find((s) => s.key === 'items')?.counts.reduce((a, b) => a + b, 0) ?? 0;
  const out = [
    `- Machine: ${os.cpus()[0]?.model ?? '?'}, ${os.cpus().length} cores; Node ${process.version}; recd ${tree}; ${new Date().toISOString()}`,
    `- ${settings.connections} connections, ${settings.seconds} s per run, ${settings.rounds} rounds, the two processes alternating; medians`,
    `- The counting process recorded ${fmtInt(items)} requests under ENDPOINTS/items (every request it served on that path)`,
    '',
    '| scenario | tool | counting on: req/s | off: req/s | on ÷ off | p99 ms on / off | rounds on | rounds off |',
    '|---|---|---:|---:|---:|---|---|---|',
  ];
  for (const tool of tools) {
    for (const p of paths) {
      const of = (c: boolean) => rows.filter((r) => r.tool === tool && r.path === p.id && r.counting === c);
      const [a, b] = [of(true), of(false)];
      const ra = median(a.map((r) => r.rps)),
        rb = median(b.map((r) => r.rps));
      out.push(
        `| ${p.id}. ${p.label} | ${tool} | ${fmtInt(ra)} | ${fmtInt(rb)} | ${fmt(ra / rb, 3)} | ${fmt(median(a.map((r) => r.p99)), 2)} / ${fmt(median(b.map((r) => r.p99)), 2)} | ${a.map((r) => fmtInt(r.rps)).join(', ')} | ${b.map((r) => fmtInt(r.rps)).join(', ')} |`,
      );
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
});
