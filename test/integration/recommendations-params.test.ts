// Every item-list recommendation endpoint × every parameter it takes (besides scenarios, which have
// their own tests), against the planted model of test/helpers/reco.ts (items 1..20 genre 'a',
// 21..40 genre 'b'; users 0..29 rate A items, 30..59 B items). Each query below leans towards A items,
// so each parameter's effect shows: amt bounds the list, cursor pages continue the one ranking,
// filters (strings, and objects in bodies) keep only passing items, a strong diversity rule brings B
// items into the head, exclude_rated_items drops what the query rated, and user_id changes nothing.
// Property-value endpoints: amt and filters (which restrict the items counted).
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Res } from '../helpers/api.js';
import { uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { count, isA, isB, itemsOf, likedBy, qs, RECO_ENV, trainedDatabase, type Q } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { token } = await trainedDatabase(api, root);

const A_LOVER = uid(0);
const A_RATINGS = likedBy(0).map((item_id) => ({ item_id, rating: 9 }));
const get = (path: string, q: Q) => api.get(path, { token, query: qs(q) });
const post = (path: string, body: Record<string, unknown>) => api.post(path, body, { token });

interface Endpoint {
  name: string;
  extra?: string[]; // answer keys besides items_id, next_cursor and warnings
  body: boolean; // parameters in a JSON body (else the query string)
  call: (params: Record<string, unknown>) => Promise<Res>;
  rated?: number[]; // what exclude_rated_items drops, where the endpoint takes it
  userId?: boolean; // takes user_id for A/B groups only
}

const ENDPOINTS: Endpoint[] = [
  { name: 'item to items', body: false, userId: true, call: (p) => get('recommendation/items/1/items/', p as Q) },
  { name: 'user to items', body: false, rated: likedBy(0), call: (p) => get(`recommendation/users/${A_LOVER}/items/`, p as Q) },
  {
    name: 'session to items',
    body: true,
    rated: likedBy(0),
    userId: true,
    call: (p) => post('recommendation/sessions/items/', { ratings: A_RATINGS, ...p }),
  },
  {
    name: 'user with context items',
    body: true,
    rated: likedBy(0),
    call: (p) => post(`recommendation/context-items/users/${A_LOVER}/items/`, { context_items: [2, 3], ...p }),
  },
  {
    name: 'session with context items',
    body: true,
    rated: likedBy(0),
    call: (p) => post('recommendation/context-items/sessions/items/', { ratings: A_RATINGS, context_items: [2, 3], ...p }),
  },
  {
    name: 'generic (item)',
    body: true,
    extra: ['reco_type', 'evaluated_scenarios'],
    call: (p) => post('recommendation/generic/items/', { item_id: 1, ...p }),
  },
  {
    name: 'generic (user)',
    body: true,
    extra: ['reco_type', 'evaluated_scenarios'],
    rated: likedBy(0),
    call: (p) => post('recommendation/generic/items/', { user_id: A_LOVER, ...p }),
  },
  {
    name: 'generic (session)',
    body: true,
    extra: ['reco_type', 'evaluated_scenarios'],
    rated: likedBy(0),
    call: (p) => post('recommendation/generic/items/', { ratings: A_RATINGS, ...p }),
  },
  {
    name: 'items for property values',
    body: true,
    call: (p) => post('recommendation/items-properties/items/', { item_properties: { genre: 'a' }, ...p }),
  },
  {
    name: 'users group',
    body: true,
    rated: [...new Set([...likedBy(0), ...likedBy(1)])],
    call: (p) => post('recommendation/users-groups/items/', { users_id: [A_LOVER, uid(1)], ...p }),
  },
];

for (const e of ENDPOINTS) {
  t.test(`${e.name}: amt, cursor, filters, reranking${e.rated ? ', exclude_rated_items' : ''}${e.userId ? ', user_id' : ''}`, async (t) => {
    const items = (r: Res, what: string, amt = 10) => itemsOf(t, r, `${e.name}, ${what}`, amt, e.extra);
    const base = items(await e.call({ amt: 8 }), 'amt=8', 8);
    t.equal(base.length, 8, 'amt=8: 8 items');
    t.ok(count(base, isA) >= 6, `the query leans towards A items: ${JSON.stringify(base)}`);
    t.equal(items(await e.call({ amt: 3 }), 'amt=3', 3).length, 3, 'amt=3: 3 items');

    // cursor: two pages of 4 are the page of 8.
    const p1 = await e.call({ amt: 4 });
    t.not(p1.body?.next_cursor, '', 'a first page of 4 has a next_cursor');
    const p2 = await e.call({ amt: 4, cursor: p1.body?.next_cursor });
    t.strictSame([...items(p1, 'page 1', 4), ...items(p2, 'page 2', 4)], base, 'pages of 4 continue the ranking of the page of 8');

    // filters: a string in either place, an object in bodies; several combine.
    const onlyB = items(await e.call({ amt: 8, filters: ['genre:eq:b'] }), 'genre:eq:b', 8);
    t.ok(onlyB.length > 0 && onlyB.every(isB), `genre:eq:b keeps B items only: ${JSON.stringify(onlyB)}`);
    const cheapB = items(await e.call({ amt: 8, filters: ['genre:eq:b', 'price:lt:26'] }), 'two filters', 8);
    t.ok(
      cheapB.every((i) => isB(i) && i < 26),
      `genre:eq:b and price:lt:26: ${JSON.stringify(cheapB)}`,
    );
    if (e.body) {
      const objects = items(await e.call({ amt: 8, filters: [{ property_name: 'genre', op: 'eq', value: 'b' }] }), 'filter object', 8);
      t.strictSame(objects, onlyB, 'the object form filters as the string form');
    }

    // reranking: a strong diversity rule mixes the head of an A-leaning list.
    for (const rule of e.body ? ['genre:diversity:5', { property_name: 'genre', op: 'diversity', weight: 5 }] : ['genre:diversity:5']) {
      const mixed = items(await e.call({ amt: 8, reranking: [rule] }), `reranking ${JSON.stringify(rule)}`, 8);
      t.ok(count(mixed.slice(0, 4), isB) >= 1, `diversity brings B items into the first 4: ${JSON.stringify(mixed)}`);
    }

    if (e.rated) {
      const rated = new Set(e.rated);
      const kept = items(await e.call({ amt: 64, exclude_rated_items: true }), 'exclude_rated_items', 64);
      t.ok(kept.length > 0 && kept.every((i) => !rated.has(i)), `no rated item: ${JSON.stringify(kept)}`);
      const all = items(await e.call({ amt: 64, exclude_rated_items: false }), 'exclude_rated_items false', 64);
      t.ok(
        all.some((i) => rated.has(i)),
        'exclude_rated_items false keeps them',
      );
    }

    if (e.userId) {
      const same = await e.call({ amt: 8, user_id: uid(45) });
      t.strictSame(items(same, 'user_id', 8), base, 'user_id (a B lover) does not personalise');
    }
  });
}

// Property values: amt bounds the list; filters restrict which items count.
const PROPERTY_ENDPOINTS: { name: string; call: (p: Record<string, unknown>) => Promise<Res> }[] = [
  { name: 'user to property values', call: (p) => get(`recommendation/users/${A_LOVER}/items-properties/price/`, p as Q) },
  {
    name: 'session to property values',
    call: (p) => post('recommendation/sessions/items-properties/price/', { ratings: A_RATINGS, ...p }),
  },
];

for (const e of PROPERTY_ENDPOINTS) {
  t.test(`${e.name}: amt and filters`, async (t) => {
    const values = (r: Res, what: string) => {
      t.equal(r.status, 200, `${what}: ${r.status} ${r.text}`);
      t.strictSame(Object.keys(r.body ?? {}).sort(), ['properties', 'warnings'], `${what}: keys`);
      return r.body?.properties as number[];
    };
    const base = values(await e.call({ amt: 8 }), 'amt=8');
    t.equal(base.length, 8, '8 values');
    t.ok(count(base, isA) >= 6, `prices of A items first (price = item id): ${JSON.stringify(base)}`);
    t.equal(values(await e.call({ amt: 2 }), 'amt=2').length, 2, 'amt=2: 2 values');
    const b = values(await e.call({ amt: 8, filters: ['genre:eq:b'] }), 'genre:eq:b');
    t.ok(b.length > 0 && b.every(isB), `only B items count: ${JSON.stringify(b)}`);
  });
}
