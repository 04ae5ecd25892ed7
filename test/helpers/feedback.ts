// Shared by the feedback tests (ratings, interactions, sessions): ids, databases, assertion messages,
// the rating count and paginated walks.
import type { Connection } from '../../src/store/redis.js';
import { keys } from '../../src/store/keys.js';
import type { Api, Res } from './api.js';
import { createDatabase, tokenFor } from './fixtures.js';

export type Id = string | number;

// The n-th test user of a uuid database (n >= 0), canonical (lower-case) form.
export const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
export const idPath = (id: Id) => encodeURIComponent(String(id));

// A status assertion's message: the body only when the status is not the expected one.
export const why = (r: Res, expected: number) =>
  r.status === expected ? `status ${expected}` : `status ${r.status}: ${r.text.slice(0, 800)}`;

export function hasWarning(r: Res, ...parts: string[]): boolean {
  const warnings: unknown = r.body?.warnings;
  return Array.isArray(warnings) && warnings.some((w) => typeof w === 'string' && parts.every((p) => w.includes(p)));
}

// A fresh database (items uint32, users uuid unless told) and a backend token on it.
export async function freshDatabase(api: Api, root: string, extra: Record<string, unknown> = {}): Promise<{ db: string; token: string }> {
  const db = await createDatabase(api, root, { item_id_type: 'uint32', user_id_type: 'uuid', ...extra });
  return { db, token: await tokenFor(api, root, 'backend', db) };
}

// The database's rating count key: absent reads as 0.
export async function ratingCount(redis: Connection, db: string): Promise<number> {
  const v = await redis.get(keys.ratingsCount(db));
  return v === null ? 0 : Number(v);
}

// Follows next_cursor from the first page until has_next is false; every page must answer 200.
export async function walkPages(
  api: Api,
  token: string,
  route: string,
  field: string,
  params: Record<string, Id | undefined> = {},
): Promise<{ rows: any[]; pages: any[] }> {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
    if (cursor !== undefined) q.set('cursor', cursor);
    const r = await api.get(route, { token, query: q.toString() || undefined });
    if (r.status !== 200) throw new Error(`${route} page ${pages.length + 1}: ${r.status} ${r.text}`);
    pages.push(r.body);
    if (!r.body.has_next) break;
    if (typeof r.body.next_cursor !== 'string' || r.body.next_cursor === '') throw new Error('has_next without next_cursor');
    cursor = r.body.next_cursor;
  }
  return { rows: pages.flatMap((p) => p[field]), pages };
}

const wrong = (name: string) => ({ status: 400, code: 40, errorName: 'WrongData', name });
const forbidden = (name: string) => ({ status: 403, code: 50, errorName: 'ForbiddenError', name });
// Expected errorOf() answers.
export const WRONG_DATA_TYPE = wrong('WRONG_DATA_TYPE');
export const WRONG_PARAMETER = wrong('WRONG_PARAMETER');
export const BAD_USER = wrong('INCORRECT_USER_ID_TYPE');
export const BAD_ITEM = wrong('INCORRECT_ITEM_ID_TYPE');
export const BAD_SESSION = wrong('INCORRECT_SESSION_ID_TYPE');
export const NO_RULE = { status: 503, code: 1, errorName: 'ServerUnavailable', name: 'DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND' };
export const INCORRECT_ROLE = forbidden('INCORRECT_ROLE');
export const NOT_OWN_USER = forbidden('INCORRECT_FRONTEND_USER_ID');
export const NOT_OWN_SESSION = forbidden('INCORRECT_FRONTEND_SESSION_ID');
export const DATABASE_NOT_FOUND = { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' };

// One user's ratings (newest first) as GET users/<u>/ratings/ shows them.
export async function ratingsOf(api: Api, token: string, user: Id): Promise<{ item_id: Id; rating: number; timestamp: number }[]> {
  const r = await api.get(`users/${idPath(user)}/ratings/`, { token });
  if (r.status !== 200) throw new Error(`ratings of ${user}: ${r.status} ${r.text}`);
  return r.body.user_ratings;
}

// The database's keys (to check that a refused request wrote nothing).
export async function dbKeys(redis: Connection, db: string): Promise<string[]> {
  return (await redis.keys(`{db:${db}}:*`)).sort();
}
