// Common set-up through the public API: root login, databases, accounts of each role.
import { isMainThread, threadId } from 'node:worker_threads';
import type { Api } from './api.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD } from './stack.js';

let seq = 0;
// A worker thread (the fuzz client) counts on its own: its names carry its thread id.
const thread = isMainThread ? '' : `t${threadId}-`;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${thread}${++seq}`;

export async function rootToken(api: Api): Promise<string> {
  const r = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  if (r.status !== 200) throw new Error(`root login failed: ${r.text}`);
  return r.body.token;
}

export async function createDatabase(api: Api, token: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await api.post(
    'databases/',
    { name: unique('db'), description: 'test', item_id_type: 'uint32', user_id_type: 'uuid', ...extra },
    { token },
  );
  if (r.status !== 200) throw new Error(`database creation failed: ${r.text}`);
  return r.body.id;
}

// An individual account of the given role, logged in on the database (root logs in itself).
export async function tokenFor(api: Api, root: string, role: string, dbId: string): Promise<string> {
  let email = ROOT_EMAIL;
  let password = ROOT_PASSWORD;
  if (role !== 'root') {
    email = `${unique(role)}@test.local`;
    password = PASSWORD;
    const c = await api.post('accounts/individual/', { email, role, password }, { token: root });
    if (c.status !== 200) throw new Error(`account creation failed: ${c.text}`);
  }
  const r = await api.post('login/individual/', { email, password, db_id: dbId });
  if (r.status !== 200) throw new Error(`login failed: ${r.text}`);
  return r.body.token;
}

export function errorOf(res: { status: number; body: any }) {
  return { status: res.status, code: res.body?.error_code, errorName: res.body?.error_name, name: res.body?.error_data?.name };
}

// A frontend individual account logged in on db, carrying frontend_user_id when given.
export async function frontendToken(api: Api, root: string, db: string, fuid?: string | number): Promise<string> {
  const email = `${unique('frontend')}@test.local`;
  const c = await api.post('accounts/individual/', { email, role: 'frontend', password: PASSWORD }, { token: root });
  if (c.status !== 200) throw new Error(`account creation failed: ${c.text}`);
  const r = await api.post('login/individual/', {
    email,
    password: PASSWORD,
    db_id: db,
    ...(fuid === undefined ? {} : { frontend_user_id: fuid }),
  });
  if (r.status !== 200) throw new Error(`frontend login failed: ${r.text}`);
  if (fuid !== undefined && String(r.body.frontend_user_id) !== String(fuid))
    throw new Error(`login answered frontend_user_id ${r.body.frontend_user_id}`);
  return r.body.token;
}
