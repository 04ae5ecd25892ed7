// User interactions: POST users/<u>/interactions/<i>/, users/<u>/interactions-bulk/ (POST, GET) and
// interactions-bulk/ (POST, GET with time windows), their listings and cursors, the inferred ratings
// they set (defaults, max and replace, explicit ratings win, case-insensitive types), the rating
// count, interaction-rules/ (GET, PUT), unknown types, identifier checks, frontend tokens and `~me`,
// roles, DELETE users/<u>/*/, DELETE interactions-ratings-bulk/ (a background task) and deleted databases.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import type { Res } from '../helpers/api.js';
import {
  BAD_ITEM,
  BAD_USER,
  DATABASE_NOT_FOUND,
  dbKeys as sharedDbKeys,
  freshDatabase,
  hasWarning,
  idPath,
  INCORRECT_ROLE,
  NO_RULE,
  NOT_OWN_USER,
  range,
  ratingCount,
  ratingsOf as sharedRatingsOf,
  uid,
  walkPages,
  why,
  WRONG_DATA_TYPE,
  WRONG_PARAMETER,
  type Id,
} from '../helpers/feedback.js';
import { errorOf, frontendToken as frontendTokenOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api, redis } = stack;
const root = await rootToken(api);
const fresh = (extra: Record<string, unknown> = {}) => freshDatabase(api, root, extra);
const count = (db: string) => ratingCount(redis, db);
const walk = async (token: string, route: string, params: Record<string, Id | undefined> = {}) => {
  const w = await walkPages(api, token, route, 'interactions', params);
  return { interactions: w.rows, pages: w.pages };
};

interface Interaction {
  user_id: Id;
  item_id: Id;
  interaction_type: string;
  timestamp: number;
  properties: Record<string, unknown>;
}
type Own = Omit<Interaction, 'user_id'>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A frontend individual account logged in on db, carrying frontend_user_id when given.
const frontendToken = (db: string, fuid?: Id) => frontendTokenOf(api, root, db, fuid);

const path = idPath;

async function postOne(token: string, user: Id, item: Id, body: Record<string, unknown>): Promise<Res> {
  return api.post(`users/${path(user)}/interactions/${path(item)}/`, body, { token });
}
async function postOwn(token: string, user: Id, interactions: unknown[]): Promise<Res> {
  return api.post(`users/${path(user)}/interactions-bulk/`, { interactions }, { token });
}
async function postAll(token: string, interactions: unknown[]): Promise<Res> {
  return api.post('interactions-bulk/', { interactions }, { token });
}

// One user's interactions: each names the user (checked here, the same on every row), shown without it.
async function ownOf(token: string, user: Id, amt = 16384): Promise<Own[]> {
  const list = (await walk(token, `users/${path(user)}/interactions-bulk/`, { amt })).interactions;
  const named = new Set(list.map((i) => i.user_id));
  if (named.size > 1 || list.some((i) => !('user_id' in i)))
    throw new Error(`users/${user}/interactions-bulk/ names ${[...named].join(', ')}`);
  if (list.length > 0 && user !== '~me' && String(list[0].user_id).toLowerCase() !== String(user).toLowerCase())
    throw new Error(`users/${user}/interactions-bulk/ names ${list[0].user_id}`);
  return list.map(({ user_id: _, ...rest }) => rest);
}
const allOf = async (token: string, amt = 16384) => (await walk(token, 'interactions-bulk/', { amt })).interactions;

const ratingsOf = (token: string, user: Id) => sharedRatingsOf(api, token, user);
// item -> rating, for checks that do not care about order or timestamps.
async function ratingMap(token: string, user: Id): Promise<Record<string, number>> {
  return Object.fromEntries((await ratingsOf(token, user)).map((r) => [String(r.item_id), r.rating]));
}

const dbKeys = (db: string) => sharedDbKeys(redis, db);

t.test(
  'POST users/<u>/interactions/<i>/ stores one interaction; GET users/<u>/interactions-bulk/ lists them in the order received',
  async (t) => {
    const { db, token } = await fresh();
    const r1 = await postOne(token, uid(1), 30, {
      interaction_type: 'view',
      timestamp: 1_700_000_000.5,
      properties: { page: 'home', position: 3 },
    });
    t.equal(r1.status, 200, why(r1, 200));
    t.strictSame(r1.body, { warnings: [] }, 'a JSON object with warnings, not an empty body');
    t.match(String(r1.headers['content-type']), /json/);
    const r2 = await postOne(token, uid(1), '10', { interaction_type: 'purchase', timestamp: 1_600_000_000 }); // earlier timestamp, received later
    t.equal(r2.status, 200, why(r2, 200));
    t.strictSame(r2.body, { warnings: [] });
    const r3 = await postOne(token, uid(1).toUpperCase(), 30, { interaction_type: 'click', timestamp: 5, properties: null });
    t.equal(r3.status, 200, why(r3, 200));
    t.equal((await postOne(token, uid(2), 30, { interaction_type: 'view', timestamp: 7 })).status, 200);

    const list = await api.get(`users/${uid(1)}/interactions-bulk/`, { token });
    t.equal(list.status, 200, why(list, 200));
    t.strictSame(
      list.body,
      {
        interactions: [
          { user_id: uid(1), item_id: 30, interaction_type: 'view', timestamp: 1_700_000_000.5, properties: { page: 'home', position: 3 } },
          { user_id: uid(1), item_id: 10, interaction_type: 'purchase', timestamp: 1_600_000_000, properties: {} },
          { user_id: uid(1), item_id: 30, interaction_type: 'click', timestamp: 5, properties: {} },
        ],
        has_next: false,
        next_cursor: '',
        warnings: [],
      },
      'order received (not timestamp order), each naming the user (lower case), item ids as numbers, {} for absent or null properties',
    );
    // The upper-case uuid names the same user.
    t.strictSame((await api.get(`users/${uid(1).toUpperCase()}/interactions-bulk/`, { token })).body.interactions, list.body.interactions);
    t.strictSame(await ownOf(token, uid(2)), [{ item_id: 30, interaction_type: 'view', timestamp: 7, properties: {} }]);
    t.strictSame(await ownOf(token, uid(3)), [], 'a user without interactions has an empty list');

    // The listing of all users carries user_id, in the order received across users.
    t.strictSame(await allOf(token), [
      { user_id: uid(1), item_id: 30, interaction_type: 'view', timestamp: 1_700_000_000.5, properties: { page: 'home', position: 3 } },
      { user_id: uid(1), item_id: 10, interaction_type: 'purchase', timestamp: 1_600_000_000, properties: {} },
      { user_id: uid(1), item_id: 30, interaction_type: 'click', timestamp: 5, properties: {} },
      { user_id: uid(2), item_id: 30, interaction_type: 'view', timestamp: 7, properties: {} },
    ]);
    t.equal(await count(db), 3, 'three (user, item) pairs got an inferred rating');
  },
);

t.test('timestamps: absent or null is now; out of range or not a number is WRONG_DATA_TYPE', async (t) => {
  const { token } = await fresh();
  const before = Date.now() / 1000;
  t.equal((await postOne(token, uid(1), 1, { interaction_type: 'view' })).status, 200);
  t.equal((await postOne(token, uid(1), 2, { interaction_type: 'view', timestamp: null })).status, 200);
  t.equal((await postOwn(token, uid(1), [{ item_id: 3, interaction_type: 'view' }])).status, 200);
  t.equal((await postAll(token, [{ user_id: uid(1), item_id: 4, interaction_type: 'view' }])).status, 200);
  const after = Date.now() / 1000;
  const got = await ownOf(token, uid(1));
  t.equal(got.length, 4);
  for (const i of got)
    t.ok(i.timestamp >= before - 1 && i.timestamp <= after + 1, `item ${i.item_id}: ${i.timestamp} within [${before}, ${after}]`);
  // The inferred ratings carry the interactions' timestamps.
  for (const r of await ratingsOf(token, uid(1)))
    t.equal(r.timestamp, got.find((i) => i.item_id === r.item_id)!.timestamp, `rating of item ${r.item_id}`);

  for (const ts of [-150000000001, 3500000001, '100', true, [1], {}]) {
    const one = await postOne(token, uid(1), 9, { interaction_type: 'view', timestamp: ts });
    t.same(errorOf(one), WRONG_DATA_TYPE, `timestamp ${JSON.stringify(ts)}`);
    const bulk = await postAll(token, [
      { user_id: uid(1), item_id: 9, interaction_type: 'view', timestamp: 1 },
      { user_id: uid(1), item_id: 9, interaction_type: 'view', timestamp: ts },
    ]);
    t.same(errorOf(bulk), WRONG_DATA_TYPE);
    t.equal(bulk.body?.error_data?.field, 'interactions[1].timestamp');
  }
  t.equal(
    (await postOne(token, uid(1), 9, { interaction_type: 'view', timestamp: -150000000000 })).status,
    200,
    'the lower bound is accepted',
  );
  t.equal(
    (await postOne(token, uid(1), 9, { interaction_type: 'view', timestamp: 3500000000 })).status,
    200,
    'the upper bound is accepted',
  );
  t.equal((await ownOf(token, uid(1))).length, 6);
});

t.test(
  'POST users/<u>/interactions-bulk/ and POST interactions-bulk/: rows in order, properties kept, unknown fields warned about',
  async (t) => {
    const { token } = await fresh();
    const props = { color: 'red', n: 3, f: 1.25, yes: true, list: [1, 'two', { three: 3 }], nested: { a: { b: 'c' } }, empty: {} };
    const own = await postOwn(token, uid(5), [
      { item_id: 3, interaction_type: 'view', timestamp: 100, properties: props },
      { item_id: '1', interaction_type: 'add_to_cart', timestamp: 101, properties: {} },
      { item_id: 3, interaction_type: 'purchase', timestamp: 102 },
    ]);
    t.equal(own.status, 200, why(own, 200));
    t.strictSame(own.body, { warnings: [] });
    t.strictSame(await ownOf(token, uid(5)), [
      { item_id: 3, interaction_type: 'view', timestamp: 100, properties: props },
      { item_id: 1, interaction_type: 'add_to_cart', timestamp: 101, properties: {} },
      { item_id: 3, interaction_type: 'purchase', timestamp: 102, properties: {} },
    ]);

    const all = await postAll(token, [
      { user_id: uid(7), item_id: 8, interaction_type: 'like', timestamp: 200, properties: { source: 'feed' } },
      { user_id: uid(5).toUpperCase(), item_id: 9, interaction_type: 'view', timestamp: 201 },
      { user_id: uid(7), item_id: 9, interaction_type: 'dislike', timestamp: 202 },
    ]);
    t.equal(all.status, 200, why(all, 200));
    t.strictSame(all.body, { warnings: [] });
    t.strictSame(await ownOf(token, uid(7)), [
      { item_id: 8, interaction_type: 'like', timestamp: 200, properties: { source: 'feed' } },
      { item_id: 9, interaction_type: 'dislike', timestamp: 202, properties: {} },
    ]);
    t.strictSame((await ownOf(token, uid(5))).at(-1), { item_id: 9, interaction_type: 'view', timestamp: 201, properties: {} });
    t.strictSame(
      (await allOf(token)).map((i) => [i.user_id, i.item_id, i.timestamp]),
      [
        [uid(5), 3, 100],
        [uid(5), 1, 101],
        [uid(5), 3, 102],
        [uid(7), 8, 200],
        [uid(5), 9, 201],
        [uid(7), 9, 202],
      ],
    );

    // An empty list is accepted and stores nothing.
    const none = await postAll(token, []);
    t.equal(none.status, 200, why(none, 200));
    t.strictSame(none.body, { warnings: [] });
    t.equal((await allOf(token)).length, 6);

    // Unknown fields: stored without them, with a warning naming them.
    const extra = await postOwn(token, uid(5), [{ item_id: 4, interaction_type: 'view', timestamp: 300, rating: 9, user_id: uid(6) }]);
    t.equal(extra.status, 200, why(extra, 200));
    t.ok(hasWarning(extra, 'rating', 'user_id'), `warnings ${JSON.stringify(extra.body?.warnings)}`);
    t.strictSame((await ownOf(token, uid(5))).at(-1), { item_id: 4, interaction_type: 'view', timestamp: 300, properties: {} });
    t.strictSame(await ownOf(token, uid(6)), [], 'a user_id in a per-user row does not redirect it');
    const extraAll = await postAll(token, [{ user_id: uid(8), item_id: 4, interaction_type: 'view', timestamp: 301, foo: 1 }]);
    t.equal(extraAll.status, 200);
    t.ok(hasWarning(extraAll, 'foo'), `warnings ${JSON.stringify(extraAll.body?.warnings)}`);
    t.notOk(hasWarning(extraAll, 'user_id'), 'user_id is a field of interactions-bulk/ rows');
    const extraOne = await postOne(token, uid(8), 5, { interaction_type: 'view', timestamp: 302, bar: 2 });
    t.equal(extraOne.status, 200);
    t.ok(hasWarning(extraOne, 'bar'), `warnings ${JSON.stringify(extraOne.body?.warnings)}`);
  },
);

t.test('interaction_type and properties are checked: WRONG_DATA_TYPE naming the row; a rejected request stores nothing', async (t) => {
  const { db, token } = await fresh();
  await api.put('interaction-rules/', { rules: { ['x'.repeat(64)]: { rating: 5 } } }, { token });
  const ok = await postOne(token, uid(1), 1, { interaction_type: 'X'.repeat(64), timestamp: 1 });
  t.equal(ok.status, 200, `64 characters: ${why(ok, 200)}`);
  t.equal((await ownOf(token, uid(1)))[0]?.interaction_type, 'X'.repeat(64));
  const before = await dbKeys(db);
  const countBefore = await count(db);
  const good = (k: number) => ({ user_id: uid(2), item_id: k + 1, interaction_type: 'view', timestamp: k });

  for (const [what, patch, field] of [
    ['65 characters', { interaction_type: 'v'.repeat(65) }, 'interactions[1].interaction_type'],
    ['empty type', { interaction_type: '' }, 'interactions[1].interaction_type'],
    ['type a number', { interaction_type: 5 }, 'interactions[1].interaction_type'],
    ['type null', { interaction_type: null }, 'interactions[1].interaction_type'],
    ['no type', { interaction_type: undefined }, 'interactions[1].interaction_type'],
    ['properties a list', { properties: [1, 2] }, 'interactions[1].properties'],
    ['properties a string', { properties: 'x' }, 'interactions[1].properties'],
    ['properties a number', { properties: 3 }, 'interactions[1].properties'],
    ['no item_id', { item_id: undefined }, 'interactions[1].item_id'],
    ['no user_id', { user_id: undefined }, 'interactions[1].user_id'],
  ] as const) {
    const r = await postAll(token, [good(0), { ...good(1), ...patch }, good(2)]);
    t.same(errorOf(r), WRONG_DATA_TYPE, what);
    t.equal(r.body?.error_data?.field, field, `${what}: field`);
  }
  const longOne = await postOne(token, uid(2), 1, { interaction_type: 'v'.repeat(65) });
  t.same(errorOf(longOne), WRONG_DATA_TYPE, 'one interaction: 65 characters');
  t.same(errorOf(await postOne(token, uid(2), 1, {})), WRONG_DATA_TYPE, 'one interaction: no type');
  t.same(
    errorOf(await postOne(token, uid(2), 1, { interaction_type: 'view', properties: ['a'] })),
    WRONG_DATA_TYPE,
    'one interaction: properties a list',
  );
  t.same(
    errorOf(await postOwn(token, uid(2), [{ item_id: 1, interaction_type: 'v'.repeat(65) }])),
    WRONG_DATA_TYPE,
    'own bulk: 65 characters',
  );
  for (const row of ['x', null, 7, [1]]) {
    const r = await postOwn(token, uid(2), [{ item_id: 1, interaction_type: 'view' }, row]);
    t.same(errorOf(r), WRONG_DATA_TYPE, `row ${JSON.stringify(row)}`);
    t.equal(r.body?.error_data?.field, 'interactions[1]');
  }
  for (const body of [{}, { interactions: 'x' }, { interactions: { item_id: 1, interaction_type: 'view' } }]) {
    t.same(errorOf(await api.post('interactions-bulk/', body, { token })), WRONG_DATA_TYPE, `body ${JSON.stringify(body)}`);
    t.same(
      errorOf(await api.post(`users/${uid(2)}/interactions-bulk/`, body, { token })),
      WRONG_DATA_TYPE,
      `own body ${JSON.stringify(body)}`,
    );
  }
  t.strictSame(await dbKeys(db), before, 'no key was created or removed');
  t.equal(await count(db), countBefore);
  t.strictSame(await ownOf(token, uid(2)), []);
  t.equal((await allOf(token)).length, 1);
});

t.test(
  'listings: amt (min 1), cursors return every interaction once in the order received; bad amt or cursor is WRONG_PARAMETER',
  async (t) => {
    const { token } = await fresh();
    // 3 users, 40 interactions each, interleaved over several requests.
    const sent: Interaction[] = [];
    for (let k = 0; k < 120; k++)
      sent.push({
        user_id: uid(k % 3),
        item_id: ((k * 37) % 50) + 1,
        interaction_type: ['view', 'click', 'purchase'][k % 3]!,
        timestamp: 1000 + ((k * 7919) % 1000),
        properties: k % 5 === 0 ? { k } : {},
      });
    t.equal((await postAll(token, sent.slice(0, 50))).status, 200);
    for (const row of sent.slice(50, 53)) {
      const { user_id, item_id, ...body } = row;
      t.equal((await postOne(token, user_id, item_id, body)).status, 200);
    }
    t.equal((await postAll(token, sent.slice(53))).status, 200);

    for (const amt of [1, 7, 39, 40, 41, 119, 120, 121, 300]) {
      const w = await walk(token, 'interactions-bulk/', { amt });
      t.strictSame(w.interactions, sent, `interactions-bulk/ amt=${amt}`);
      t.equal(w.pages.length, Math.max(1, Math.ceil(120 / amt)), `amt=${amt}: pages`);
      t.ok(w.pages.slice(0, -1).every((p) => p.interactions.length === amt && p.has_next === true));
      t.equal(w.pages.at(-1).next_cursor, '', "next_cursor is '' on the last page");
      for (const p of w.pages) t.strictSame(p.warnings, []);
      const o = await walk(token, `users/${uid(1)}/interactions-bulk/`, { amt });
      t.strictSame(
        o.interactions,
        sent.filter((s) => s.user_id === uid(1)),
        `own amt=${amt}`,
      );
      t.equal(o.pages.length, Math.max(1, Math.ceil(40 / amt)), `own amt=${amt}: pages`);
    }
    const byDefault = await api.get('interactions-bulk/', { token });
    t.equal(byDefault.status, 200);
    t.equal(byDefault.body.interactions.length, 120, 'amt defaults above 120');
    t.equal(byDefault.body.has_next, false);

    // A cursor is reusable and does not depend on the amt that produced it.
    const first = await api.get('interactions-bulk/', { token, query: 'amt=10' });
    const cursor = first.body.next_cursor as string;
    const a = await api.get('interactions-bulk/', { token, query: `amt=10&cursor=${encodeURIComponent(cursor)}` });
    const b = await api.get('interactions-bulk/', { token, query: `amt=10&cursor=${encodeURIComponent(cursor)}` });
    t.strictSame(a.body, b.body);
    t.strictSame(a.body.interactions, sent.slice(10, 20));
    t.strictSame(
      (await api.get('interactions-bulk/', { token, query: `amt=3&cursor=${encodeURIComponent(cursor)}` })).body.interactions,
      sent.slice(10, 13),
    );
    t.strictSame(
      (await api.get('interactions-bulk/', { token, query: 'amt=10&cursor=' })).body,
      first.body,
      'an empty cursor is the first page',
    );

    // New interactions appear behind an old cursor.
    const last = await api.get('interactions-bulk/', { token, query: 'amt=120' });
    t.equal(last.body.has_next, false);
    t.equal((await postOne(token, uid(2), 99, { interaction_type: 'view', timestamp: 5 })).status, 200);
    const tail = await api.get('interactions-bulk/', { token, query: `cursor=${encodeURIComponent(a.body.next_cursor)}&amt=200` });
    t.equal(tail.body.interactions.length, 101, 'the remaining 100 and the new one');
    t.strictSame(tail.body.interactions.at(-1), { user_id: uid(2), item_id: 99, interaction_type: 'view', timestamp: 5, properties: {} });

    for (const route of ['interactions-bulk/', `users/${uid(1)}/interactions-bulk/`]) {
      for (const q of ['amt=0', 'amt=-1', 'amt=abc', 'amt=2.5', 'amt=16385'])
        t.same(errorOf(await api.get(route, { token, query: q })), WRONG_PARAMETER, `${route} ${q}`);
      const b64 = (s: string) => Buffer.from(s).toString('base64url');
      for (const bad of ['garbage', b64('r1:0:0'), b64('s1:1'), b64('s1:a:0'), 'x'.repeat(257)]) {
        t.same(
          errorOf(await api.get(route, { token, query: `cursor=${encodeURIComponent(bad)}` })),
          WRONG_PARAMETER,
          `${route} cursor ${bad.slice(0, 16)}`,
        );
      }
      t.equal((await api.get(route, { token, query: 'amt=1' })).body.interactions.length, 1);
    }
  },
);

t.test('GET interactions-bulk/ time windows: start inclusive, end exclusive; start >= end is WrongData', async (t) => {
  const { token } = await fresh();
  const ts = [300, 100, 200, 200.5, 400, 199.999, 100, 500];
  const sent = ts.map((timestamp, k) => ({ user_id: uid(k % 2), item_id: k + 1, interaction_type: 'view', timestamp, properties: {} }));
  t.equal((await postAll(token, sent)).status, 200);
  const window = async (start?: number, end?: number, amt = 16384) =>
    (await walk(token, 'interactions-bulk/', { amt, start_timestamp: start, end_timestamp: end })).interactions;
  const expect = (start?: number, end?: number) =>
    sent.filter((s) => (start === undefined || s.timestamp >= start) && (end === undefined || s.timestamp < end));

  t.strictSame(await window(200, 400), [sent[0], sent[2], sent[3]], '[200, 400): 300, 200, 200.5 in the order received');
  t.strictSame(await window(100, 200), [sent[1], sent[5], sent[6]], '[100, 200): 100, 199.999, 100');
  t.strictSame(await window(200), expect(200), 'start only');
  t.strictSame(await window(undefined, 200), expect(undefined, 200), 'end only');
  t.strictSame(await window(500, 500.001), [sent[7]], 'a window holding just the start');
  t.strictSame(await window(499.999, 500), [], 'the end itself is excluded');
  t.strictSame(await window(600, 700), [], 'an empty window');
  t.strictSame(await window(-1e9, 1e9), sent, 'a window holding everything');
  t.strictSame(await window(), sent);
  for (const amt of [1, 2, 3]) t.strictSame(await window(150, 450, amt), expect(150, 450), `window with amt=${amt}: each once`);

  for (const [start, end] of [
    [200, 200],
    [300, 200],
    [0, -1],
  ]) {
    const r = await api.get('interactions-bulk/', { token, query: `start_timestamp=${start}&end_timestamp=${end}` });
    t.equal(r.status, 400, `start ${start} end ${end}: ${why(r, 400)}`);
    t.equal(r.body?.error_name, 'WrongData');
    t.equal(r.body?.error_code, 40);
  }
  t.same(errorOf(await api.get('interactions-bulk/', { token, query: 'start_timestamp=abc' })), WRONG_PARAMETER);
});

t.test('inferred ratings: documented defaults, max keeps the higher, replace overrides; types match case-insensitively', async (t) => {
  const { db, token } = await fresh();
  const rules = await api.get('interaction-rules/', { token });
  t.equal(rules.status, 200, why(rules, 200));
  t.strictSame(rules.body.rules, {}, 'a new database has no rules of its own');
  t.match(rules.body.defaults, {
    view: { rating: 6, combine: 'max' },
    click: { rating: 6.5, combine: 'max' },
    add_to_cart: { rating: 8, combine: 'max' },
    purchase: { rating: 9.5, combine: 'max' },
    like: { rating: 9, combine: 'replace' },
    dislike: { rating: 2, combine: 'replace' },
  });
  t.strictSame(rules.body.warnings, []);

  // One interaction per item: the defaults.
  const u = uid(1);
  const each = { view: 6, click: 6.5, add_to_cart: 8, purchase: 9.5, like: 9, dislike: 2 } as const;
  const types = Object.keys(each) as (keyof typeof each)[];
  for (const [k, type] of types.entries())
    t.equal((await postOne(token, u, k + 1, { interaction_type: type, timestamp: 1000 + k })).status, 200, type);
  t.strictSame(
    await ratingsOf(token, u),
    types.map((type, k) => ({ item_id: k + 1, rating: each[type], timestamp: 1000 + k })).reverse(),
    'each type its default rating, the interaction timestamp',
  );
  t.equal(await count(db), 6);

  // Sequences on one (user, item) pair (each in one request and also one request per interaction).
  const sequences: [string[], number][] = [
    [['view', 'purchase'], 9.5],
    [['purchase', 'view'], 9.5], // max keeps the higher
    [['add_to_cart', 'click'], 8],
    [['purchase', 'dislike'], 2], // replace overrides a higher rating
    [['dislike', 'view'], 6], // max after replace: the higher
    [['like', 'view'], 9],
    [['purchase', 'like'], 9], // replace overrides even downwards
    [['like', 'dislike', 'click'], 6.5],
    [['dislike', 'like'], 9],
    [['VIEW', 'Purchase', 'DisLike'], 2], // case-insensitive
    [['Like', 'VIEW'], 9],
  ];
  for (const [s, [seq, expected]] of sequences.entries()) {
    const bulkUser = uid(100 + s);
    const r = await postOwn(
      token,
      bulkUser,
      seq.map((type, k) => ({ item_id: 7, interaction_type: type, timestamp: 10 + k })),
    );
    t.equal(r.status, 200, why(r, 200));
    t.strictSame(await ratingMap(token, bulkUser), { 7: expected }, `${seq.join(' → ')} in one request`);
    const oneUser = uid(200 + s);
    for (const [k, type] of seq.entries())
      t.equal((await postOne(token, oneUser, 7, { interaction_type: type, timestamp: 10 + k })).status, 200);
    t.strictSame(await ratingMap(token, oneUser), { 7: expected }, `${seq.join(' → ')} one by one`);
  }
  t.equal(await count(db), 6 + 2 * sequences.length, 'one rating per pair, however many interactions');

  // Types are stored as sent.
  t.strictSame(
    (await ownOf(token, uid(109))).map((i) => i.interaction_type),
    ['VIEW', 'Purchase', 'DisLike'],
  );
});

t.test('explicit ratings win: a later interaction does not change them; an explicit rating replaces an inferred one', async (t) => {
  const { db, token } = await fresh();
  const u = uid(1);
  t.equal((await api.put(`users/${u}/ratings/1/`, { rating: 3, timestamp: 50 }, { token })).status, 204);
  t.equal((await api.put('ratings-bulk/', { ratings: [{ user_id: u, item_id: 2, rating: 10, timestamp: 60 }] }, { token })).status, 200);
  t.equal(await count(db), 2);
  for (const type of ['purchase', 'like', 'dislike', 'view']) {
    t.equal((await postOne(token, u, 1, { interaction_type: type, timestamp: 70 })).status, 200);
    t.equal((await postOwn(token, u, [{ item_id: 2, interaction_type: type, timestamp: 71 }])).status, 200);
  }
  t.strictSame(
    await ratingsOf(token, u),
    [
      { item_id: 2, rating: 10, timestamp: 60 },
      { item_id: 1, rating: 3, timestamp: 50 },
    ],
    'explicit ratings and their timestamps unchanged',
  );
  t.equal(await count(db), 2);
  t.equal((await ownOf(token, u)).length, 8, 'the interactions are stored all the same');

  // Inferred first, then explicit: the explicit one replaces it (not counted twice) and then stays.
  t.equal((await postOne(token, u, 3, { interaction_type: 'purchase', timestamp: 80 })).status, 200);
  t.equal(await count(db), 3);
  t.strictSame((await ratingsOf(token, u))[0], { item_id: 3, rating: 9.5, timestamp: 80 });
  t.equal((await api.put(`users/${u}/ratings/3/`, { rating: 1.5, timestamp: 90 }, { token })).status, 204);
  t.equal(await count(db), 3);
  t.equal((await postOne(token, u, 3, { interaction_type: 'like', timestamp: 100 })).status, 200);
  t.strictSame((await ratingsOf(token, u))[0], { item_id: 3, rating: 1.5, timestamp: 90 });

  // Once the explicit rating is deleted, interactions infer again.
  t.equal((await api.delete(`users/${u}/ratings/1/`, undefined, { token })).status, 204);
  t.equal(await count(db), 2);
  t.equal((await postOne(token, u, 1, { interaction_type: 'view', timestamp: 110 })).status, 200);
  t.equal((await ratingMap(token, u))['1'], 6);
  t.equal(await count(db), 3);
});

t.test('the rating count key {db:<id>}:ratings:count follows inferred ratings', async (t) => {
  const { db, token } = await fresh();
  t.equal(keys.ratingsCount(db), `{db:${db}}:ratings:count`);
  t.equal(await redis.exists(`{db:${db}}:ratings:count`), 0, 'absent before any rating');
  t.equal(
    (
      await postAll(token, [
        { user_id: uid(1), item_id: 1, interaction_type: 'view' },
        { user_id: uid(1), item_id: 1, interaction_type: 'purchase' },
        { user_id: uid(1), item_id: 2, interaction_type: 'view' },
        { user_id: uid(2), item_id: 1, interaction_type: 'like' },
      ])
    ).status,
    200,
  );
  t.equal(await redis.get(`{db:${db}}:ratings:count`), '3');
  t.equal((await postOne(token, uid(2), 1, { interaction_type: 'dislike' })).status, 200);
  t.equal(await redis.get(`{db:${db}}:ratings:count`), '3', 'a pair already rated is not counted again');
  t.equal((await postOne(token, uid(3), 1, { interaction_type: 'dislike' })).status, 200);
  t.equal(await redis.get(`{db:${db}}:ratings:count`), '4');
  // GET ratings-bulk/ sees the inferred ratings too.
  t.equal((await api.get('ratings-bulk/', { token })).body.ratings.length, 4);
  // Deleting a user's ratings lowers it.
  t.equal((await api.delete(`users/${uid(1)}/ratings/`, undefined, { token })).status, 204);
  t.equal(await redis.get(`{db:${db}}:ratings:count`), '2');
});

t.test(
  'an interaction type without rule or default: 503 DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND, nothing stored; PUT interaction-rules/ adds one',
  async (t) => {
    const { db, token } = await fresh();
    t.equal((await postOne(token, uid(1), 1, { interaction_type: 'view', timestamp: 1 })).status, 200);
    const before = await dbKeys(db);
    const allBefore = await allOf(token);

    const one = await postOne(token, uid(1), 2, { interaction_type: 'teleport', timestamp: 2 });
    t.same(errorOf(one), NO_RULE, 'one interaction');
    t.equal(one.body?.error_data?.interaction_type, 'teleport');
    t.same(
      errorOf(
        await postOwn(token, uid(1), [
          { item_id: 3, interaction_type: 'view' },
          { item_id: 4, interaction_type: 'Teleport' },
        ]),
      ),
      NO_RULE,
      'own bulk, mixed with a known type',
    );
    t.same(
      errorOf(
        await postAll(token, [
          { user_id: uid(2), item_id: 3, interaction_type: 'purchase' },
          { user_id: uid(3), item_id: 4, interaction_type: 'TELEPORT' },
        ]),
      ),
      NO_RULE,
      'bulk, mixed',
    );
    t.strictSame(await allOf(token), allBefore, 'no interaction listed');
    t.strictSame(await ownOf(token, uid(2)), []);
    t.strictSame(await dbKeys(db), before, 'no key created');
    t.equal(await count(db), 1);

    const put = await api.put('interaction-rules/', { rules: { teleport: { rating: 7, combine: 'max' } } }, { token });
    t.ok(put.status === 204 || put.status === 200, why(put, 204));
    const got = await api.get('interaction-rules/', { token });
    t.strictSame(got.body.rules, { teleport: { rating: 7, combine: 'max' } });
    t.equal(got.body.defaults.view.rating, 6, 'defaults still shown');
    const ok = await postOne(token, uid(1), 2, { interaction_type: 'TelePort', timestamp: 2 });
    t.equal(ok.status, 200, why(ok, 200));
    t.strictSame(ok.body, { warnings: [] });
    t.equal((await ratingMap(token, uid(1)))['2'], 7);
    t.strictSame(
      (await ownOf(token, uid(1))).map((i) => i.interaction_type),
      ['view', 'TelePort'],
    );
  },
);

t.test('PUT interaction-rules/ replaces the rules (defaults can be overridden); bad rules are refused and change nothing', async (t) => {
  const { token } = await fresh();
  // Upper-case names are stored lower-cased; combine defaults to max.
  let put = await api.put('interaction-rules/', { rules: { View: { rating: 3, combine: 'replace' }, Wish: { rating: 7.5 } } }, { token });
  t.ok(put.status === 204 || put.status === 200, why(put, 204));
  t.strictSame((await api.get('interaction-rules/', { token })).body.rules, {
    view: { rating: 3, combine: 'replace' },
    wish: { rating: 7.5, combine: 'max' },
  });
  // The database's view rule wins over the default, with its combine.
  t.equal(
    (
      await postOwn(token, uid(1), [
        { item_id: 1, interaction_type: 'purchase' },
        { item_id: 1, interaction_type: 'view' },
      ])
    ).status,
    200,
  );
  t.strictSame(await ratingMap(token, uid(1)), { 1: 3 }, 'view now replaces with 3');
  t.equal(
    (
      await postOwn(token, uid(1), [
        { item_id: 2, interaction_type: 'wish' },
        { item_id: 2, interaction_type: 'click' },
      ])
    ).status,
    200,
  );
  t.strictSame(await ratingMap(token, uid(1)), { 1: 3, 2: 7.5 }, 'wish 7.5, max with click 6.5');

  // Bad rules: 400, and the rules stay as they were.
  const bad: [string, unknown][] = [
    ['rating 0', { a: { rating: 0 } }],
    ['rating 10.5', { a: { rating: 10.5 } }],
    ['rating a string', { a: { rating: '7' } }],
    ['no rating', { a: { combine: 'max' } }],
    ['combine sum', { a: { rating: 5, combine: 'sum' } }],
    ['rule null', { a: null }],
    ['rule a number', { a: 5 }],
    ['type 65 characters', { ['t'.repeat(65)]: { rating: 5 } }],
    ['empty type', { '': { rating: 5 } }],
    ['rules a string', 'x'],
    ['rules a list', [{ rating: 5 }]],
  ];
  for (const [what, rules] of bad) {
    const isMap = typeof rules === 'object' && rules !== null && !Array.isArray(rules);
    // A good rule next to the bad one: the whole request is refused.
    const r = await api.put('interaction-rules/', { rules: isMap ? { ok: { rating: 5 }, ...rules } : rules }, { token });
    t.equal(r.status, 400, `${what}: ${why(r, 400)}`);
    t.equal(r.body?.error_name, 'WrongData', what);
  }
  t.same(errorOf(await api.put('interaction-rules/', {}, { token })), WRONG_DATA_TYPE, 'no rules');
  t.strictSame(
    (await api.get('interaction-rules/', { token })).body.rules,
    { view: { rating: 3, combine: 'replace' }, wish: { rating: 7.5, combine: 'max' } },
    'unchanged',
  );

  // Replacing forgets the previous rules: wish has no rule again; view is back to its default.
  put = await api.put('interaction-rules/', { rules: {} }, { token });
  t.ok(put.status === 204 || put.status === 200, why(put, 204));
  t.strictSame((await api.get('interaction-rules/', { token })).body.rules, {});
  t.same(errorOf(await postOne(token, uid(2), 1, { interaction_type: 'wish' })), NO_RULE);
  t.equal(
    (
      await postOwn(token, uid(2), [
        { item_id: 1, interaction_type: 'purchase' },
        { item_id: 1, interaction_type: 'view' },
      ])
    ).status,
    200,
  );
  t.strictSame(await ratingMap(token, uid(2)), { 1: 9.5 }, 'the default view: max 6');
});

t.test(
  'identifier types: INCORRECT_USER_ID_TYPE and INCORRECT_ITEM_ID_TYPE in paths and bodies; a rejected request stores nothing',
  async (t) => {
    const { db, token } = await fresh();
    t.equal((await postOne(token, uid(1), 1, { interaction_type: 'view', timestamp: 1 })).status, 200);
    const before = await dbKeys(db);
    const body = { interaction_type: 'view', timestamp: 2 };

    for (const bad of ['not-a-uuid', '12', `${uid(1)}a`]) {
      t.same(errorOf(await postOne(token, bad, 1, body)), BAD_USER, `one: user ${bad}`);
      t.same(errorOf(await postOwn(token, bad, [{ item_id: 1, ...body }])), BAD_USER, `own bulk: user ${bad}`);
      t.same(errorOf(await api.get(`users/${path(bad)}/interactions-bulk/`, { token })), BAD_USER, `GET own: user ${bad}`);
    }
    for (const bad of ['abc', '-1', '1.5', '4294967296', '0']) {
      t.same(errorOf(await postOne(token, uid(1), bad, body)), BAD_ITEM, `one: item ${bad}`);
    }
    for (const bad of ['abc', -1, 1.5, 4294967296, 0, '0', '', true, uid(1)]) {
      const own = await postOwn(token, uid(1), [
        { item_id: 1, ...body },
        { item_id: bad, ...body },
      ]);
      t.same(errorOf(own), BAD_ITEM, `own bulk: item ${JSON.stringify(bad)}`);
      t.same(
        errorOf(
          await postAll(token, [
            { user_id: uid(1), item_id: 1, ...body },
            { user_id: uid(1), item_id: bad, ...body },
          ]),
        ),
        BAD_ITEM,
        `bulk: item ${JSON.stringify(bad)}`,
      );
    }
    for (const bad of ['abc', 5, '', true, `${uid(1)}0`]) {
      t.same(
        errorOf(
          await postAll(token, [
            { user_id: uid(1), item_id: 1, ...body },
            { user_id: bad, item_id: 2, ...body },
          ]),
        ),
        BAD_USER,
        `bulk: user ${JSON.stringify(bad)}`,
      );
    }
    t.strictSame(await dbKeys(db), before, 'no key created, no interaction added');
    t.equal((await allOf(token)).length, 1);
    t.equal(await count(db), 1);

    // urlsafe users: anything urlsafe is fine, other characters are not.
    const other = await fresh({ user_id_type: 'urlsafe' });
    t.equal((await postOne(other.token, 'user_A-1', 1, body)).status, 200);
    t.same(errorOf(await postAll(other.token, [{ user_id: 'a b', item_id: 1, ...body }])), BAD_USER);
    t.same(errorOf(await postAll(other.token, [{ user_id: 12, item_id: 1, ...body }])), BAD_USER);
    t.strictSame(await allOf(other.token), [{ user_id: 'user_A-1', item_id: 1, interaction_type: 'view', timestamp: 2, properties: {} }]);
  },
);

for (const [label, extra, own, other] of [
  ['uuid users', { user_id_type: 'uuid' }, uid(1), uid(2)],
  ['urlsafe users', { user_id_type: 'urlsafe' }, 'me_myself', 'someone-else'],
] as const) {
  t.test(`${label}: a frontend token with frontend_user_id posts interactions only for its own user; ~me names it`, async (t) => {
    const { db, token } = await fresh(extra);
    const mine = await frontendToken(db, own);

    const one = await postOne(mine, own, 1, { interaction_type: 'view', timestamp: 10 });
    t.equal(one.status, 200, why(one, 200));
    t.strictSame(one.body, { warnings: [] });
    const viaMe = await postOne(mine, '~me', 2, { interaction_type: 'purchase', timestamp: 20 });
    t.equal(viaMe.status, 200, why(viaMe, 200));
    const bulkMe = await postOwn(mine, '~me', [{ item_id: 3, interaction_type: 'like', timestamp: 30 }]);
    t.equal(bulkMe.status, 200, why(bulkMe, 200));
    t.equal((await postOwn(mine, own, [{ item_id: 4, interaction_type: 'click', timestamp: 40 }])).status, 200);
    t.strictSame(
      (await ownOf(token, own)).map((i) => [i.item_id, i.interaction_type]),
      [
        [1, 'view'],
        [2, 'purchase'],
        [3, 'like'],
        [4, 'click'],
      ],
      'all written under the own user',
    );
    t.strictSame(await ratingMap(mine, '~me'), { 1: 6, 2: 9.5, 3: 9, 4: 6.5 }, 'the own inferred ratings');
    if (label === 'uuid users')
      t.equal((await postOne(mine, String(own).toUpperCase(), 5, { interaction_type: 'view' })).status, 200, 'the own uuid in upper case');

    const before = await dbKeys(db);
    t.same(errorOf(await postOne(mine, other, 1, { interaction_type: 'view' })), NOT_OWN_USER, 'one, another user');
    t.same(errorOf(await postOwn(mine, other, [{ item_id: 1, interaction_type: 'view' }])), NOT_OWN_USER, 'own bulk, another user');
    t.strictSame(await dbKeys(db), before, 'nothing written');
    t.strictSame(await ownOf(token, other), []);

    // Listings and bulk endpoints of all users are not for frontends, not even for the own user.
    const refused: [string, () => Promise<Res>][] = [
      ['GET users/<own>/interactions-bulk/', () => api.get(`users/${path(own)}/interactions-bulk/`, { token: mine })],
      ['GET users/~me/interactions-bulk/', () => api.get('users/~me/interactions-bulk/', { token: mine })],
      ['GET interactions-bulk/', () => api.get('interactions-bulk/', { token: mine })],
      ['POST interactions-bulk/', () => postAll(mine, [{ user_id: own, item_id: 9, interaction_type: 'view' }])],
      ['DELETE interactions-ratings-bulk/', () => api.delete('interactions-ratings-bulk/', { users_id: [own] }, { token: mine })],
      ['GET interaction-rules/', () => api.get('interaction-rules/', { token: mine })],
      ['PUT interaction-rules/', () => api.put('interaction-rules/', { rules: {} }, { token: mine })],
    ];
    for (const [what, call] of refused) t.same(errorOf(await call()), INCORRECT_ROLE, what);
    t.strictSame(await dbKeys(db), before, 'nothing written');

    // A frontend token without frontend_user_id posts for no user, and cannot use ~me; nor can a backend.
    const plain = await frontendToken(db);
    t.same(
      errorOf(await postOne(plain, other, 7, { interaction_type: 'view', timestamp: 70 })),
      NOT_OWN_USER,
      'one, without frontend_user_id',
    );
    t.same(
      errorOf(await postOwn(plain, other, [{ item_id: 7, interaction_type: 'view' }])),
      NOT_OWN_USER,
      'own bulk, without frontend_user_id',
    );
    t.strictSame(await dbKeys(db), before, 'nothing written');
    for (const tok of [plain, token]) {
      t.same(errorOf(await postOne(tok, '~me', 1, { interaction_type: 'view' })), NOT_OWN_USER, 'one ~me without frontend_user_id');
      t.same(
        errorOf(await postOwn(tok, '~me', [{ item_id: 1, interaction_type: 'view' }])),
        NOT_OWN_USER,
        'own bulk ~me without frontend_user_id',
      );
    }
  });
}

t.test('roles: root, manager and backend use every endpoint; frontend only the per-user POSTs', async (t) => {
  const { db } = await fresh();
  for (const [k, role] of ['root', 'manager', 'backend'].entries()) {
    const tok = await tokenFor(api, root, role, db);
    const u = uid(k + 1);
    t.equal((await postOne(tok, u, 1, { interaction_type: 'view', timestamp: 1 })).status, 200, `${role} POST one`);
    t.equal((await postOwn(tok, u, [{ item_id: 2, interaction_type: 'view', timestamp: 2 }])).status, 200, `${role} POST own`);
    t.equal((await postAll(tok, [{ user_id: u, item_id: 3, interaction_type: 'view', timestamp: 3 }])).status, 200, `${role} POST all`);
    t.strictSame(
      (await ownOf(tok, u)).map((i) => i.item_id),
      [1, 2, 3],
      `${role} GET own`,
    );
    t.equal((await api.get('interactions-bulk/', { token: tok })).status, 200, `${role} GET all`);
    t.equal((await api.get('interaction-rules/', { token: tok })).status, 200, `${role} GET rules`);
  }
  const frontend = await frontendToken(db, uid(50));
  t.equal((await postOne(frontend, uid(50), 1, { interaction_type: 'view' })).status, 200, 'frontend POST one');
  t.equal((await postOwn(frontend, uid(50), [{ item_id: 2, interaction_type: 'view' }])).status, 200, 'frontend POST own');
  t.same(errorOf(await api.get(`users/${uid(50)}/interactions-bulk/`, { token: frontend })), INCORRECT_ROLE, 'frontend GET own');
  t.same(errorOf(await api.get('interactions-bulk/', { token: frontend })), INCORRECT_ROLE, 'frontend GET all');
  t.same(
    errorOf(await postAll(frontend, [{ user_id: uid(50), item_id: 3, interaction_type: 'view' }])),
    INCORRECT_ROLE,
    'frontend POST all',
  );
  t.equal((await allOf(await tokenFor(api, root, 'backend', db))).length, 11);
});

t.test("DELETE users/<u>/*/ removes the user's interactions (also from interactions-bulk/) and ratings, nobody else's", async (t) => {
  const { db, token } = await fresh();
  t.equal(
    (
      await postAll(token, [
        { user_id: uid(1), item_id: 1, interaction_type: 'view', timestamp: 1 },
        { user_id: uid(2), item_id: 1, interaction_type: 'like', timestamp: 2 },
        { user_id: uid(1), item_id: 2, interaction_type: 'purchase', timestamp: 3 },
        { user_id: uid(3), item_id: 3, interaction_type: 'click', timestamp: 4 },
      ])
    ).status,
    200,
  );
  t.equal((await api.put(`users/${uid(1)}/ratings/9/`, { rating: 4, timestamp: 5 }, { token })).status, 204);
  t.equal(await count(db), 5);

  const d = await api.delete(`users/${uid(1)}/*/`, undefined, { token });
  t.equal(d.status, 204, why(d, 204));
  t.strictSame(await ownOf(token, uid(1)), []);
  t.strictSame(await ratingsOf(token, uid(1)), []);
  t.strictSame(
    (await allOf(token)).map((i) => [i.user_id, i.item_id]),
    [
      [uid(2), 1],
      [uid(3), 3],
    ],
  );
  t.strictSame(await ratingMap(token, uid(2)), { 1: 9 });
  t.strictSame(await ratingMap(token, uid(3)), { 3: 6.5 });
  t.equal(await count(db), 2);
  // Walking with small pages skips the removed entries.
  t.strictSame(
    (await walk(token, 'interactions-bulk/', { amt: 1 })).interactions.map((i) => i.user_id),
    [uid(2), uid(3)],
  );

  // The user can interact again afterwards.
  t.equal((await postOne(token, uid(1), 5, { interaction_type: 'view', timestamp: 6 })).status, 200);
  t.strictSame(
    (await ownOf(token, uid(1))).map((i) => i.item_id),
    [5],
  );
  t.equal(await count(db), 3);
  t.equal((await api.delete(`users/${uid(77)}/*/`, undefined, { token })).status, 204, 'an unknown user');
  t.equal(await count(db), 3);
});

t.test(
  'large requests are stored in several chunks: listings walk every row once in order across them; forgetting a user keeps the others in place',
  async (t) => {
    const { token } = await fresh();
    // 700 rows of three users, interleaved (several storage chunks of a few hundred rows each).
    const sent = range(0, 700).map((k) => ({
      user_id: uid(k % 3),
      item_id: 1000 + k,
      interaction_type: k % 2 ? 'view' : 'click',
      timestamp: k,
      properties: k % 5 === 0 ? { k } : {},
    }));
    t.equal((await postAll(token, sent)).status, 200);
    t.strictSame(await allOf(token), sent, 'one walk returns every row in order');
    for (const amt of [1, 7, 256, 699]) {
      const w = await walk(token, 'interactions-bulk/', { amt });
      t.strictSame(w.interactions, sent, `pages of ${amt}`);
    }
    t.strictSame(
      await ownOf(token, uid(1), 9),
      sent.filter((r) => r.user_id === uid(1)).map(({ user_id: _, ...rest }) => rest),
      "one user's rows, pages of 9",
    );
    // A later request continues the order.
    t.equal((await postOne(token, uid(2), 5, { interaction_type: 'like', timestamp: 800 })).status, 200);
    const after = [...sent, { user_id: uid(2), item_id: 5, interaction_type: 'like', timestamp: 800, properties: {} }];
    t.strictSame(await allOf(token), after);

    t.equal((await api.delete(`users/${uid(1)}/*/`, undefined, { token })).status, 204);
    const kept = after.filter((r) => r.user_id !== uid(1));
    t.strictSame(await allOf(token), kept, "the user's rows are gone, the others keep their order");
    t.strictSame((await walk(token, 'interactions-bulk/', { amt: 13 })).interactions, kept, 'pages of 13 over chunks with removed rows');
    t.strictSame(
      await ownOf(token, uid(0), 50),
      kept.filter((r) => r.user_id === uid(0)).map(({ user_id: _, ...rest }) => rest),
      'another user of the same chunks is intact',
    );
    t.strictSame(await ownOf(token, uid(1)), []);
  },
);

// Polls the deletion task until it leaves RUNNING.
async function awaitTask(token: string, taskId: string): Promise<any> {
  for (let k = 0; k < 200; k++) {
    const r = await api.get('tasks/interactions_ratings_deletion/recents/', { token });
    if (r.status !== 200) throw new Error(`tasks: ${r.status} ${r.text}`);
    const task = r.body.tasks.find((x: any) => x.task_id === taskId);
    if (task && task.status !== 'RUNNING') return task;
    await sleep(25);
  }
  throw new Error(`task ${taskId} did not finish`);
}

t.test("DELETE interactions-ratings-bulk/: a background task that removes the users' interactions and ratings", async (t) => {
  const { db, token } = await fresh();
  const users = range(0, 150).map(uid);
  const rows = users.flatMap((u, k) => [
    { user_id: u, item_id: 1, interaction_type: 'view', timestamp: k },
    { user_id: u, item_id: 2 + (k % 3), interaction_type: 'purchase', timestamp: k + 0.5 },
  ]);
  t.equal((await postAll(token, rows)).status, 200);
  t.equal(
    (await api.put('ratings-bulk/', { ratings: users.map((u) => ({ user_id: u, item_id: 100, rating: 5, timestamp: 1 })) }, { token }))
      .status,
    200,
  );
  t.equal(await count(db), 450);

  // The first 120 users, one of them twice and one in upper case; user 149 kept.
  const gone = users.slice(0, 120);
  const startedAt = Date.now() / 1000;
  const d = await api.delete('interactions-ratings-bulk/', { users_id: [...gone, gone[3], gone[7]!.toUpperCase()] }, { token });
  t.equal(d.status, 202, why(d, 202));
  t.type(d.body?.task_id, 'string');
  t.ok(String(d.body?.task_id).length > 0);
  t.strictSame(d.body.warnings, []);

  const task = await awaitTask(token, d.body.task_id);
  t.match(task, {
    task_id: d.body.task_id,
    name: 'interactions_ratings_deletion',
    status: 'COMPLETED',
    progress: '120/120 users',
    error: null,
  });
  t.ok(task.start_time >= startedAt - 1 && task.start_time <= Date.now() / 1000 + 1, `start_time ${task.start_time}`);
  t.type(task.end_time, 'number');
  t.ok(task.end_time >= task.start_time);

  for (const u of [gone[0]!, gone[7]!, gone[119]!]) {
    t.strictSame(await ownOf(token, u), [], `${u}: no interactions`);
    t.strictSame(await ratingsOf(token, u), [], `${u}: no ratings (explicit or inferred)`);
  }
  for (const u of users.slice(120)) t.equal((await ownOf(token, u)).length, 2, `${u} kept its interactions`);
  t.strictSame(await ratingMap(token, users[149]!), { 1: 6, [String(2 + (149 % 3))]: 9.5, 100: 5 });
  const all = await allOf(token);
  t.equal(all.length, 60);
  t.ok(
    all.every((i) => users.indexOf(String(i.user_id)) >= 120),
    'interactions-bulk/ lists the kept users only',
  );
  t.equal(await count(db), 90);

  // Unknown users and an empty list complete too.
  const empty = await api.delete('interactions-ratings-bulk/', { users_id: [] }, { token });
  t.equal(empty.status, 202, why(empty, 202));
  t.match(await awaitTask(token, empty.body.task_id), { status: 'COMPLETED', progress: '0/0 users' });
  await sleep(5); // distinct start times, for the newest-first order below
  const unknown = await api.delete('interactions-ratings-bulk/', { users_id: [uid(999)] }, { token });
  t.match(await awaitTask(token, unknown.body.task_id), { status: 'COMPLETED', progress: '1/1 users' });
  t.equal(await count(db), 90);
  const recents = await api.get('tasks/interactions_ratings_deletion/recents/', { token });
  t.strictSame(
    recents.body.tasks.map((x: any) => x.task_id),
    [unknown.body.task_id, empty.body.task_id, d.body.task_id],
    'newest first',
  );

  // A bad user id: 400, no task.
  t.same(errorOf(await api.delete('interactions-ratings-bulk/', { users_id: [uid(140), 'nope'] }, { token })), BAD_USER);
  t.same(errorOf(await api.delete('interactions-ratings-bulk/', {}, { token })), WRONG_DATA_TYPE);
  t.equal((await api.get('tasks/interactions_ratings_deletion/recents/', { token })).body.tasks.length, 3);
  t.equal((await ownOf(token, uid(140))).length, 2);
});

t.test('a token bound to a deleted database gets DATABASE_NOT_FOUND on the interaction endpoints; nothing is recreated', async (t) => {
  const { db, token } = await fresh();
  t.equal((await postOne(token, uid(1), 1, { interaction_type: 'view' })).status, 200);
  t.equal((await api.put('interaction-rules/', { rules: { teleport: { rating: 7 } } }, { token })).status, 204);
  const admin = await tokenFor(api, root, 'root', db);
  const d = await api.delete('databases/current/', undefined, { token: admin });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);

  const calls: [string, () => Promise<Res>][] = [
    ['POST users/<u>/interactions/<i>/', () => postOne(token, uid(1), 2, { interaction_type: 'view' })],
    ['POST users/<u>/interactions-bulk/', () => postOwn(token, uid(1), [{ item_id: 2, interaction_type: 'purchase' }])],
    ['POST interactions-bulk/', () => postAll(token, [{ user_id: uid(2), item_id: 2, interaction_type: 'like' }])],
    ['GET users/<u>/interactions-bulk/', () => api.get(`users/${uid(1)}/interactions-bulk/`, { token })],
    ['GET interactions-bulk/', () => api.get('interactions-bulk/', { token })],
    ['GET interactions-bulk/ with a window', () => api.get('interactions-bulk/', { token, query: 'start_timestamp=0&end_timestamp=10' })],
    ['DELETE interactions-ratings-bulk/', () => api.delete('interactions-ratings-bulk/', { users_id: [uid(1)] }, { token })],
    ['GET interaction-rules/', () => api.get('interaction-rules/', { token })],
    ['PUT interaction-rules/', () => api.put('interaction-rules/', { rules: { a: { rating: 5 } } }, { token })],
    ['DELETE users/<u>/*/', () => api.delete(`users/${uid(1)}/*/`, undefined, { token })],
  ];
  for (const [what, call] of calls) t.same(errorOf(await call()), DATABASE_NOT_FOUND, what);
  // A type without a default: the missing database should come first.
  // Also with a type that has no rule (the missing database comes first).
  t.same(
    errorOf(await postOne(token, uid(1), 2, { interaction_type: 'teleport-unknown' })),
    DATABASE_NOT_FOUND,
    'POST with a type that has no rule',
  );
  t.same(
    errorOf(await postAll(token, [{ user_id: uid(1), item_id: 2, interaction_type: 'teleport' }])),
    DATABASE_NOT_FOUND,
    'POST with a type whose rule went with the database',
  );

  const left = (await redis.keys('*')).filter((key) => key.startsWith(`{db:${db}}`));
  t.same(left, [], 'the refused requests recreated no key of the database');
});
