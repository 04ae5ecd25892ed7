// Set-up over HTTP as a client would: call, ok, backendToken (a database and a backend account), seedItems (the 10,000-item catalogue).
import { BENCH_PROPERTIES, benchItem, propertyBody } from './catalogue-fixture.js';
import { sleep } from './processes.js';
import { ROOT_EMAIL, ROOT_PASSWORD } from './servers.js';

const BACKEND_EMAIL = 'backend@bench.local';
const BACKEND_PASSWORD = 'Backend-password-1';

export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: any; text: string }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, json, text };
}

export async function backendToken(
  base: string,
  idTypes = { item_id_type: 'uint32', user_id_type: 'uuid' },
): Promise<{ token: string; dbId: string }> {
  const root = await call(base, 'POST', '/v1/login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  if (root.status !== 200) throw new Error(`root login failed: ${root.status} ${root.text}`);
  const rootToken = root.json.token as string;
  const db = await call(base, 'POST', '/v1/databases/', { name: 'bench', description: 'HTTP benchmark', ...idTypes }, rootToken);
  if (db.status !== 200) throw new Error(`database creation failed: ${db.status} ${db.text}`);
  const dbId = db.json.id as string;
  const acc = await call(
    base,
    'POST',
    '/v1/accounts/individual/',
    { email: BACKEND_EMAIL, role: 'backend', password: BACKEND_PASSWORD },
    rootToken,
  );
  if (acc.status !== 200) throw new Error(`backend account creation failed: ${acc.status} ${acc.text}`);
  const login = await call(base, 'POST', '/v1/login/individual/', { email: BACKEND_EMAIL, password: BACKEND_PASSWORD, db_id: dbId });
  if (login.status !== 200) throw new Error(`backend login failed: ${login.status} ${login.text}`);
  return { token: login.json.token as string, dbId };
}

// Scenario e: 10,000 items with 10 properties each; the first read starts the process's view build.
export async function seedItems(base: string, token: string): Promise<void> {
  for (const prop of BENCH_PROPERTIES) {
    const r = await call(base, 'POST', '/v1/items-properties/', propertyBody(prop), token);
    if (r.status !== 204) throw new Error(`property creation failed: ${r.status} ${r.text}`);
  }
  for (let start = 1; start <= 10_000; start += 500) {
    const items = Array.from({ length: 500 }, (_, k) => benchItem(start + k, start + k));
    const r = await call(base, 'PUT', '/v1/items-bulk/properties/', { items }, token);
    if (r.status !== 200) throw new Error(`item upload failed: ${r.status} ${r.text}`);
  }
  await call(base, 'GET', '/v1/items/4242/properties/', undefined, token);
  await sleep(1000); // the view of 10,000 items is built well within this
}

// call() that throws unless the status is one of `expect`; the answer's JSON.
export async function ok(base: string, token: string, method: string, path: string, body?: unknown, expect = [200]): Promise<any> {
  const r = await call(base, method, path, body, token);
  if (!expect.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
  return r.json;
}
