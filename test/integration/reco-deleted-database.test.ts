// Recommendations with the token of a deleted database answer as every other route does for it (404
// DATABASE_NOT_FOUND), trained or not, precomputed tables and sessions included: a 503
// DATABASE_NOT_READY ("trains once it holds 500 ratings") would have clients retry for good.
import t from 'tap';
import type { Res } from '../helpers/api.js';
import { DATABASE_NOT_FOUND, freshDatabase, uid, why } from '../helpers/feedback.js';
import { errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { need, RECO_ENV, tasksOf, trainedDatabase, until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const NOT_READY = { status: 503, code: 1, errorName: 'ServerUnavailable', name: 'DATABASE_NOT_READY' };
const session = { ratings: [{ item_id: 2, rating: 9 }] };

// Every recommendation endpoint, precomputed ones included.
const ENDPOINTS: [string, (token: string) => Promise<Res>][] = [
  ['item to items', (token) => api.get('recommendation/items/2/items/', { token })],
  ['user to items', (token) => api.get(`recommendation/users/${uid(1)}/items/`, { token })],
  ['session to items', (token) => api.post('recommendation/sessions/items/', session, { token })],
  [
    'user with context items',
    (token) => api.post(`recommendation/context-items/users/${uid(1)}/items/`, { context_items: [2] }, { token }),
  ],
  [
    'session with context items',
    (token) => api.post('recommendation/context-items/sessions/items/', { ...session, context_items: [2] }, { token }),
  ],
  ['user to property values', (token) => api.get(`recommendation/users/${uid(1)}/items-properties/genre/`, { token })],
  ['session to property values', (token) => api.post('recommendation/sessions/items-properties/genre/', session, { token })],
  ['generic', (token) => api.post('recommendation/generic/items/', { item_id: 2 }, { token })],
  [
    'property values to items',
    (token) => api.post('recommendation/items-properties/items/', { item_properties: { genre: 'a' } }, { token }),
  ],
  ['a group of users', (token) => api.post('recommendation/users-groups/items/', { users_id: [uid(1), uid(2)] }, { token })],
  ['precomputed, by item', (token) => api.get('recommendation/precomputed/items/2/items/', { token, query: 'table=similar' })],
  ['precomputed, by user', (token) => api.get(`recommendation/precomputed/users/${uid(1)}/items/`, { token, query: 'table=mine' })],
];

async function deleteDatabase(db: string): Promise<void> {
  const d = await api.delete('databases/current/', undefined, { token: await tokenFor(api, root, 'root', db) });
  if (d.status !== 200 && d.status !== 204) throw new Error(`delete: ${d.status} ${d.text}`);
}

t.test('a deleted trained database: every recommendation endpoint answers 404 DATABASE_NOT_FOUND, as its listings do', async (t) => {
  const { db, token } = await trainedDatabase(api, root);
  for (const [name, reco_type] of [
    ['similar', 'item_to_items'],
    ['mine', 'profile_to_items'],
  ]) {
    need(await api.put(`precomputed-tables/${name}/`, { reco_type, amt: 5 }, { token }), 200, `table ${name}`);
  }
  await until(
    'the tables built',
    () => tasksOf(api, token, 'precomputed_tables'),
    (ts) => ts.length > 0 && ts.every((x) => x.status === 'COMPLETED'),
    60_000,
  );
  // Answered first, so this process holds the model and the tables when the database goes.
  for (const [what, call] of ENDPOINTS) {
    const r = await call(token);
    t.equal(r.status, 200, `${what} before the delete: ${why(r, 200)}`);
  }
  await deleteDatabase(db);

  t.same(errorOf(await api.get('items-bulk/properties/', { token })), DATABASE_NOT_FOUND, 'the item listing, for reference');
  for (const [what, call] of ENDPOINTS) {
    const r = await call(token);
    t.same(errorOf(r), DATABASE_NOT_FOUND, `${what}: ${why(r, 404)}`);
  }
});

t.test('a deleted database never trained: 404 DATABASE_NOT_FOUND where it answered 503 DATABASE_NOT_READY', async (t) => {
  const { db, token } = await freshDatabase(api, root);
  need(await api.post('items-properties/', { property_name: 'genre', value_type: 'unicode16' }, { token }), 204, 'genre');
  t.same(errorOf(await api.get('recommendation/items/2/items/', { token })), NOT_READY, 'not ready while it exists');
  await deleteDatabase(db);
  for (const [what, call] of ENDPOINTS) {
    const r = await call(token);
    t.same(errorOf(r), DATABASE_NOT_FOUND, `${what}: ${why(r, 404)}`);
  }
});
