// Shared by the recommendation tests: a trained database with planted structure (items 1..20 genre
// 'a', 21..40 genre 'b', price = id; users 0..29 rate only A items, users 30..59 only B items, users
// 60..69 rate items 38, 39, 40, the most popular three), polling, the answer check, and raw HTTP
// pipelining on one socket.
import { connect } from 'node:net';
import type tap from 'tap';
import type { Api, Res } from './api.js';
import { freshDatabase, range, uid, why } from './feedback.js';

export type Tt = Parameters<Parameters<typeof tap.test>[0]>[0];

// ---- polling -------------------------------------------------------------------------------------

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() >= end) throw new Error(`${what}: not reached within ${ms} ms; last read: ${JSON.stringify(v).slice(0, 1500)}`);
    await pause(200);
  }
}

export interface TaskRow {
  task_id: string;
  status: string;
  error: string | null;
  progress?: string;
}

export async function tasksOf(api: Api, token: string, name: string): Promise<TaskRow[]> {
  const r = await api.get(`tasks/${name}/recents/`, { token, query: 'amt=500' });
  if (r.status !== 200) throw new Error(`tasks/${name}/recents/: ${r.status} ${r.text}`);
  return r.body.tasks;
}
export const settled = (ts: { status: string }[]) => ts.every((x) => x.status === 'COMPLETED' || x.status === 'FAILED');

export async function statusOf(api: Api, token: string): Promise<string> {
  const r = await api.get('databases/current/status/', { token });
  if (r.status !== 200) throw new Error(`status: ${r.status} ${r.text}`);
  return r.body.status;
}

export async function modelsOf(api: Api, token: string): Promise<{ model_id: string; serving: boolean }[]> {
  const r = await api.get('pretrained-ml/trained-models/', { token });
  if (r.status !== 200) throw new Error(`trained-models: ${r.status} ${r.text}`);
  return r.body.models;
}

// ---- planted data --------------------------------------------------------------------------------

export const N_ITEMS = 40;
export const A = range(1, 21);
export const B = range(21, 41);
export const isA = (i: number) => i >= 1 && i <= 20;
export const isB = (i: number) => i >= 21 && i <= 40;
export const POPULAR = [38, 39, 40];
const NOW = Math.floor(Date.now() / 1000);

// User u's 10 distinct items inside its group (7 is coprime with 20); every item is rated 15 times.
export const likedBy = (u: number) => range(0, 10).map((j) => ((u * 3 + j * 7) % 20) + (u < 30 ? 1 : 21));
function ratingRows() {
  const rows: { user_id: string; item_id: number; rating: number; timestamp: number }[] = [];
  for (let u = 0; u < 60; u++)
    likedBy(u).forEach((item, j) =>
      rows.push({ user_id: uid(u), item_id: item, rating: 8 + ((u + j) % 3), timestamp: NOW - 5000 + u * 10 + j }),
    );
  for (let u = 60; u < 70; u++)
    POPULAR.forEach((item, j) => rows.push({ user_id: uid(u), item_id: item, rating: 9, timestamp: NOW - 5000 + u * 10 + j }));
  return rows;
}
export const RATINGS = ratingRows();

// The stack's settings the trained database is built with (small and quick).
export const RECO_ENV = {
  RECD_ALS_FACTORS: '8',
  RECD_ALS_ITERATIONS: '4',
  RECD_SEARCH_SECONDS: '0', // the planted answers are asserted of these fixed parameters
  RECD_TRAINING_POLL_MS: '200',
  RECD_TRAINING_THREADS: '2',
};

// A set-up call that must answer `status`: the test file cannot go on otherwise.
export function need(r: Res, status: number, what: string): void {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
}

// Items 1..n with an int32 property `grp` (groupOf of each), 5,000 a request; once the ml_new_items
// task the database's creation queued has settled, so a training that follows runs alone.
export async function groupedCatalogue(api: Api, token: string, n: number, groupOf: (item: number) => number): Promise<void> {
  need(await api.post('items-properties/', { property_name: 'grp', value_type: 'int32' }, { token }), 204, 'grp');
  for (let from = 1; from <= n; from += 5000) {
    need(
      await api.put(
        'items-bulk/properties/',
        { items: range(from, Math.min(n + 1, from + 5000)).map((i) => ({ item_id: i, grp: groupOf(i) })) },
        { token },
      ),
      200,
      'items',
    );
  }
  await until('ml_new_items settled', () => tasksOf(api, token, 'ml_new_items'), settled);
}

// A fresh database holding the planted data, trained once; its backend token and its one model.
export async function trainedDatabase(api: Api, root: string): Promise<{ db: string; token: string; modelId: string }> {
  const { db, token } = await freshDatabase(api, root);
  need(await api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token }), 204, 'genre');
  need(await api.post('items-properties/', { property_name: 'price', value_type: 'int32' }, { token }), 204, 'price');
  need(await api.post('users-properties/', { property_name: 'age', value_type: 'int8' }, { token }), 204, 'age');
  const items = range(1, N_ITEMS + 1).map((i) => ({ item_id: i, genre: isA(i) ? 'a' : 'b', price: i }));
  need(await api.put('items-bulk/properties/', { items }, { token }), 200, 'items');
  // The ml_new_items task the creation queued has nothing to do; let it finish before training.
  await until('ml_new_items settled', () => tasksOf(api, token, 'ml_new_items'), settled);
  need(await api.put('ratings-bulk/', { ratings: RATINGS }, { token }), 200, 'ratings');
  await until(
    'ready',
    () => statusOf(api, token),
    (s) => s === 'ready',
  );
  const all = await until(
    'training settled',
    async () => [...(await tasksOf(api, token, 'ml_model_retrain')), ...(await tasksOf(api, token, 'ml_new_items'))],
    settled,
  );
  if (all.some((x) => x.status === 'FAILED')) throw new Error(`a task failed: ${JSON.stringify(all)}`);
  const ms = await modelsOf(api, token);
  if (ms.length !== 1) throw new Error(`expected one model, got ${JSON.stringify(ms)}`);
  return { db, token, modelId: ms[0]!.model_id };
}

// ---- requests and answers --------------------------------------------------------------------------

export type Q = Record<string, string | number | boolean | (string | number)[] | undefined>;
export function qs(q: Q): string | undefined {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, String(x));
  }
  return p.toString() || undefined;
}

// An answer less its recommendation_id, which is every answer's own: for comparing two answers.
export function withoutId(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { recommendation_id: _, ...rest } = body as Record<string, unknown>;
  return rest;
}

// A 200 answer of the documented shape whose items are distinct model items; returns them.
// `extra` names keys the answer carries besides items_id, next_cursor, recommendation_id and warnings.
export function itemsOf(t: Tt, r: Res, what: string, amt = 10, extra: string[] = []): number[] {
  t.equal(r.status, 200, `${what}: ${why(r, 200)}`);
  if (r.status !== 200) return [];
  t.strictSame(Object.keys(r.body).sort(), ['items_id', 'next_cursor', 'recommendation_id', 'warnings', ...extra].sort(), `${what}: keys`);
  t.ok(Array.isArray(r.body.items_id), `${what}: items_id is a list`);
  t.match(r.body.recommendation_id, /^[A-Za-z0-9_.-]{10,}$/, `${what}: recommendation_id is an opaque id`);
  t.type(r.body.next_cursor, 'string', `${what}: next_cursor is a string`);
  t.ok(Array.isArray(r.body.warnings), `${what}: warnings is a list`);
  const ids: number[] = r.body.items_id;
  t.ok(
    ids.every((i) => typeof i === 'number'),
    `${what}: uint32 ids are numbers`,
  );
  t.equal(new Set(ids).size, ids.length, `${what}: no duplicates in ${JSON.stringify(ids)}`);
  t.ok(
    ids.every((i) => i >= 1 && i <= N_ITEMS),
    `${what}: only items of the model: ${JSON.stringify(ids)}`,
  );
  t.ok(ids.length <= amt, `${what}: at most amt=${amt} items`);
  return ids;
}
export const count = (ids: number[], p: (i: number) => boolean) => ids.filter(p).length;

// ---- pipelining ---------------------------------------------------------------------------------------

export interface RawResponse {
  status: number;
  body: any;
}

// Splits what came back on one socket into complete responses (Content-Length or chunked bodies).
export function parseResponses(buf: Buffer): { done: RawResponse[]; partial: boolean } {
  const done: RawResponse[] = [];
  let at = 0;
  while (at < buf.length) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end < 0) return { done, partial: true };
    const head = buf.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0]!)?.[1]);
    const headers = new Map(
      head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    let bodyStart = end + 4;
    let body: Buffer;
    if (headers.has('content-length')) {
      const n = Number(headers.get('content-length'));
      if (buf.length < bodyStart + n) return { done, partial: true };
      body = buf.subarray(bodyStart, bodyStart + n);
      at = bodyStart + n;
    } else if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
      const parts: Buffer[] = [];
      for (;;) {
        const line = buf.indexOf('\r\n', bodyStart);
        if (line < 0) return { done, partial: true };
        const size = parseInt(buf.subarray(bodyStart, line).toString(), 16);
        if (buf.length < line + 2 + size + 2) return { done, partial: true };
        parts.push(buf.subarray(line + 2, line + 2 + size));
        bodyStart = line + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
      at = bodyStart;
    } else {
      body = Buffer.alloc(0);
      at = bodyStart;
    }
    let parsed: unknown = body.toString();
    try {
      parsed = JSON.parse(body.toString());
    } catch {
      /* left as text */
    }
    done.push({ status, body: parsed });
  }
  return { done, partial: false };
}

// Writes the GET requests back to back in one write on one socket; resolves with the responses once
// as many came back (or the socket closed, or 10 s passed).
export function pipelined(api: Api, token: string, paths: string[]): Promise<{ responses: RawResponse[]; closedEarly: boolean }> {
  const port = Number(new URL(api.base).port);
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let finished = false;
    const finish = (closedEarly: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ responses: parseResponses(Buffer.concat(chunks)).done, closedEarly });
    };
    const timer = setTimeout(() => finish(true), 10_000);
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      const { done, partial } = parseResponses(Buffer.concat(chunks));
      if (done.length >= paths.length && !partial) finish(false);
    });
    sock.on('error', (e) => (finished ? undefined : reject(e)));
    sock.on('close', () => finish(true));
    sock.write(
      paths
        .map((p) => `GET /v1/${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: Bearer ${token}\r\n\r\n`)
        .join(''),
    );
  });
}
