// The wrk scripts of the benches (test/harness/wrk-script.ts, run by bench/lib/load.ts) send what the benches claim: for random paths an
// id drawn from the whole list on every request, for random sessions a new valid body of distinct
// items rated 1–10 whose Content-Length is its length. wrk runs for real against a server that
// records every request.
import { test } from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { wrkScript, type Target } from '../harness/wrk-script.js';

interface Seen {
  url: string;
  length: string | undefined;
  body: string;
}

async function recorded(target: (port: number) => Target): Promise<Seen[]> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', length: req.headers['content-length'], body: Buffer.concat(chunks).toString() });
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const dir = mkdtempSync(join(tmpdir(), 'recd-wrk-'));
  try {
    const t = target((server.address() as AddressInfo).port);
    const wrk = spawn('wrk', ['-t1', '-c64', '-d1s', '-s', wrkScript(dir, t, 1), t.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    wrk.stdout.on('data', (d: Buffer) => (output += d.toString()));
    wrk.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((ok) => wrk.on('close', ok));
    // wrk names non-2xx answers and socket errors in its summary when there were any.
    if (code !== 0 || /Non-2xx|Socket errors/.test(output)) throw new Error(`wrk exited ${code}: ${output}`);
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return seen;
}

test('random sessions from a list of ids, on random paths: valid bodies, new ones, every id reachable', async (t) => {
  const ids = [7, 40, 123, 5000, 99999];
  const seen = await recorded((port) => ({
    url: `http://127.0.0.1:${port}/recommend`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
    randomPath: { prefix: '/items/', max: 3, suffix: '/similar?count=5' },
    randomSession: { ids, ratings: 3 },
  }));
  t.ok(seen.length > 100, `${seen.length} requests`);
  const items = new Set<number>(),
    paths = new Set<string>(),
    bodies = new Set<string>();
  for (const s of seen) {
    if (Number(s.length) !== Buffer.byteLength(s.body)) t.fail(`Content-Length ${s.length} of ${JSON.stringify(s.body)}`);
    const parsed = JSON.parse(s.body) as { ratings: { item_id: number; rating: number }[] };
    const rated = parsed.ratings.map((r) => r.item_id);
    if (new Set(rated).size !== 3 || !rated.every((id) => ids.includes(id))) t.fail(`items ${rated.join(',')}`);
    if (!parsed.ratings.every((r) => Number.isInteger(r.rating) && r.rating >= 1 && r.rating <= 10)) t.fail(s.body);
    rated.forEach((id) => items.add(id));
    paths.add(s.url);
    bodies.add(s.body);
  }
  t.same(
    [...items].sort((a, b) => a - b),
    ids,
    'every id is drawn',
  );
  t.same([...paths].sort(), ['/items/1/similar?count=5', '/items/2/similar?count=5', '/items/3/similar?count=5']);
  t.ok(bodies.size > 100, `${bodies.size} distinct bodies of ${seen.length}`);
});

test('random paths from a list of ids, with a fixed body', async (t) => {
  const seen = await recorded((port) => ({
    url: `http://127.0.0.1:${port}/x`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
    randomPath: { prefix: '/users/', max: 0, suffix: '/items', ids: [11, 22] },
  }));
  t.ok(seen.length > 100);
  t.same([...new Set(seen.map((s) => s.url))].sort(), ['/users/11/items', '/users/22/items']);
  t.ok(seen.every((s) => s.body === '{"a":1}' && s.length === '7'));
});

test('random sessions from 1..n on the url path', async (t) => {
  const seen = await recorded((port) => ({
    url: `http://127.0.0.1:${port}/s?x=1`,
    method: 'POST',
    headers: {},
    randomSession: { ids: 12, ratings: 12 },
  }));
  t.ok(seen.length > 100);
  for (const s of seen) {
    const rated = (JSON.parse(s.body) as { ratings: { item_id: number }[] }).ratings.map((r) => r.item_id).sort((a, b) => a - b);
    if (s.url !== '/s?x=1' || rated.join() !== '1,2,3,4,5,6,7,8,9,10,11,12') t.fail(`${s.url} ${rated.join()}`);
  }
});
