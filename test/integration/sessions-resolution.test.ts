// Session interactions and their resolution to users: POST sessions/<s>/items/<i>/interactions/,
// sessions/<s>/interactions-bulk/ (POST, GET), sessions-interactions-bulk/ (POST, GET with time
// windows), POST sessions/<s>/resolve/, POST resolved-sessions/, frontend logins naming a user and a
// session, the inferred ratings a resolution makes, frontend tokens with frontend_session_id and
// `~me`, roles, session identifier checks, concurrent writes and deleted databases.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Res } from '../helpers/api.js';
import {
  BAD_ITEM,
  BAD_SESSION,
  BAD_USER,
  DATABASE_NOT_FOUND,
  dbKeys as sharedDbKeys,
  freshDatabase,
  hasWarning,
  idPath,
  INCORRECT_ROLE,
  NO_RULE,
  NOT_OWN_SESSION,
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
import { errorOf, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { PASSWORD, startStack } from '../helpers/stack.js';

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

const sid = (n: number) => `5e5510e0-0000-4000-a000-${n.toString(16).padStart(12, '0')}`;

// A frontend individual account; `login` logs it in on db with the frontend ids given.
async function frontendAccount(): Promise<{ login: (db: string, ids?: { user?: Id; session?: Id }) => Promise<Res> }> {
  const email = `${unique('frontend')}@test.local`;
  const c = await api.post('accounts/individual/', { email, role: 'frontend', password: PASSWORD }, { token: root });
  if (c.status !== 200) throw new Error(`account creation failed: ${c.text}`);
  return {
    login: (db, ids = {}) =>
      api.post('login/individual/', {
        email,
        password: PASSWORD,
        db_id: db,
        ...(ids.user === undefined ? {} : { frontend_user_id: ids.user }),
        ...(ids.session === undefined ? {} : { frontend_session_id: ids.session }),
      }),
  };
}
async function frontendToken(db: string, ids: { user?: Id; session?: Id } = {}): Promise<string> {
  const r = await (await frontendAccount()).login(db, ids);
  if (r.status !== 200) throw new Error(`frontend login failed: ${r.text}`);
  if (ids.session !== undefined && String(r.body.frontend_session_id) !== String(ids.session))
    throw new Error(`login answered frontend_session_id ${r.body.frontend_session_id}`);
  return r.body.token;
}

const dbKeys = (db: string) => sharedDbKeys(redis, db);

const path = idPath;
const postOne = (token: string, session: Id, item: Id, body: Record<string, unknown>) =>
  api.post(`sessions/${path(session)}/items/${path(item)}/interactions/`, body, { token });
const postOwn = (token: string, session: Id, interactions: unknown[]) =>
  api.post(`sessions/${path(session)}/interactions-bulk/`, { interactions }, { token });
const postAll = (token: string, interactions: unknown[]) => api.post('sessions-interactions-bulk/', { interactions }, { token });
const resolve = (token: string, session: Id, body: Record<string, unknown>) =>
  api.post(`sessions/${path(session)}/resolve/`, body, { token });

const ownOf = async (token: string, session: Id, amt = 16384) =>
  (await walk(token, `sessions/${path(session)}/interactions-bulk/`, { amt })).interactions;
const allOf = async (token: string, amt = 16384) => (await walk(token, 'sessions-interactions-bulk/', { amt })).interactions;

const ratingsOf = (token: string, user: Id) => sharedRatingsOf(api, token, user);
async function ratingMap(token: string, user: Id): Promise<Record<string, number>> {
  return Object.fromEntries((await ratingsOf(token, user)).map((r) => [String(r.item_id), r.rating]));
}

interface Link {
  session_id: Id;
  user_id: Id;
  timestamp: number;
}
// Every page of resolved-sessions/ (body fields as given), following next_cursor.
async function resolvedWalk(token: string, body: Record<string, unknown> = {}): Promise<{ links: Link[]; pages: any[] }> {
  const pages: any[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const r = await api.post('resolved-sessions/', { ...body, ...(cursor === undefined ? {} : { cursor }) }, { token });
    if (r.status !== 200) throw new Error(`resolved-sessions/ page ${pages.length + 1}: ${r.status} ${r.text}`);
    pages.push(r.body);
    if (!r.body.has_next) break;
    if (typeof r.body.next_cursor !== 'string' || r.body.next_cursor === '') throw new Error('has_next without next_cursor');
    cursor = r.body.next_cursor;
  }
  return { links: pages.flatMap((p) => p.resolved_sessions), pages };
}

t.test('session endpoints store interactions; listings in the order received, each naming its session', async (t) => {
  const { db, token } = await fresh();
  const one = await postOne(token, sid(1), 30, {
    interaction_type: 'view',
    timestamp: 1_700_000_000.5,
    properties: { page: 'home', rank: 2 },
  });
  t.equal(one.status, 200, why(one, 200));
  t.strictSame(one.body, { warnings: [] }, 'a JSON object with warnings');
  const own = await postOwn(token, sid(1).toUpperCase(), [
    { item_id: '10', interaction_type: 'purchase', timestamp: 100 },
    { item_id: 30, interaction_type: 'click', timestamp: 50, properties: { nested: { a: [1, 2] } } },
  ]);
  t.equal(own.status, 200, why(own, 200));
  t.strictSame(own.body, { warnings: [] });
  const all = await postAll(token, [
    { session_id: sid(2), item_id: 7, interaction_type: 'like', timestamp: 200 },
    { session_id: sid(1), item_id: 8, interaction_type: 'view', timestamp: 300, properties: null },
  ]);
  t.equal(all.status, 200, why(all, 200));
  t.strictSame(all.body, { warnings: [] });

  const list = await api.get(`sessions/${sid(1)}/interactions-bulk/`, { token });
  t.equal(list.status, 200, why(list, 200));
  t.strictSame(list.body, {
    interactions: [
      { session_id: sid(1), item_id: 30, interaction_type: 'view', timestamp: 1_700_000_000.5, properties: { page: 'home', rank: 2 } },
      { session_id: sid(1), item_id: 10, interaction_type: 'purchase', timestamp: 100, properties: {} },
      { session_id: sid(1), item_id: 30, interaction_type: 'click', timestamp: 50, properties: { nested: { a: [1, 2] } } },
      { session_id: sid(1), item_id: 8, interaction_type: 'view', timestamp: 300, properties: {} },
    ],
    has_next: false,
    next_cursor: '',
    warnings: [],
  });
  t.strictSame(
    (await api.get(`sessions/${sid(1).toUpperCase()}/interactions-bulk/`, { token })).body,
    list.body,
    'the upper-case uuid names the same session',
  );
  t.strictSame(await ownOf(token, sid(3)), [], 'a session without interactions');
  t.strictSame(
    (await allOf(token)).map((i) => [i.session_id, i.item_id, i.timestamp]),
    [
      [sid(1), 30, 1_700_000_000.5],
      [sid(1), 10, 100],
      [sid(1), 30, 50],
      [sid(2), 7, 200],
      [sid(1), 8, 300],
    ],
  );
  t.strictSame((await api.get('sessions-interactions-bulk/', { token })).body.warnings, []);

  // Session interactions are not user interactions, and an unresolved session makes no rating.
  t.strictSame((await api.get('interactions-bulk/', { token })).body.interactions, []);
  t.equal(await count(db), 0);
  t.strictSame((await api.get('ratings-bulk/', { token })).body.ratings, []);

  // Unknown fields: a warning naming them.
  const extra = await postOwn(token, sid(4), [{ item_id: 1, interaction_type: 'view', session_id: sid(5), user_id: uid(1) }]);
  t.equal(extra.status, 200);
  t.ok(hasWarning(extra, 'session_id', 'user_id'), `warnings ${JSON.stringify(extra.body?.warnings)}`);
  t.strictSame(await ownOf(token, sid(5)), []);
  const extraAll = await postAll(token, [{ session_id: sid(4), item_id: 2, interaction_type: 'view', foo: true }]);
  t.ok(hasWarning(extraAll, 'foo'), `warnings ${JSON.stringify(extraAll.body?.warnings)}`);
  t.notOk(hasWarning(extraAll, 'session_id'));
  t.strictSame(
    (await ownOf(token, sid(4))).map((i) => i.item_id),
    [1, 2],
  );
});

t.test('session listings: amt and cursors give every interaction once; time windows start inclusive, end exclusive', async (t) => {
  const { token } = await fresh();
  const sent = range(0, 90).map((k) => ({
    session_id: sid(k % 3),
    item_id: k + 1,
    interaction_type: ['view', 'dislike', 'add_to_cart'][k % 3]!,
    timestamp: 1000 + ((k * 31) % 90),
    properties: k % 4 === 0 ? { k } : {},
  }));
  t.equal((await postAll(token, sent.slice(0, 40))).status, 200);
  t.equal(
    (
      await postOwn(
        token,
        sid(1),
        sent.slice(40, 41).map(({ session_id: _, ...r }) => r),
      )
    ).status,
    200,
  );
  t.equal((await postAll(token, sent.slice(41))).status, 200);

  for (const amt of [1, 4, 29, 30, 31, 89, 90, 91]) {
    const w = await walk(token, 'sessions-interactions-bulk/', { amt });
    t.strictSame(w.interactions, sent, `all amt=${amt}`);
    t.equal(w.pages.length, Math.ceil(90 / amt), `all amt=${amt}: pages`);
    const o = await walk(token, `sessions/${sid(1)}/interactions-bulk/`, { amt });
    t.strictSame(
      o.interactions,
      sent.filter((s) => s.session_id === sid(1)),
      `own amt=${amt}`,
    );
    t.equal(o.pages.length, Math.ceil(30 / amt), `own amt=${amt}: pages`);
  }

  const inWindow = (s?: number, e?: number) =>
    sent.filter((x) => (s === undefined || x.timestamp >= s) && (e === undefined || x.timestamp < e));
  for (const [s, e] of [
    [1010, 1020],
    [1000, 1001],
    [1089, 1090],
    [1089, undefined],
    [undefined, 1005],
    [1030.5, 1040],
  ] as const) {
    const got = (await walk(token, 'sessions-interactions-bulk/', { amt: 3, start_timestamp: s, end_timestamp: e })).interactions;
    t.strictSame(got, inWindow(s, e), `window [${s}, ${e})`);
  }
  t.equal(inWindow(1010, 1020).length, 10, 'the window check counts: ten timestamps in [1010, 1020)');
  t.ok(inWindow(1010, 1020).some((x) => x.timestamp === 1010) && !inWindow(1010, 1020).some((x) => x.timestamp === 1020));

  for (const q of ['start_timestamp=5&end_timestamp=5', 'start_timestamp=6&end_timestamp=5']) {
    const r = await api.get('sessions-interactions-bulk/', { token, query: q });
    t.equal(r.status, 400, `${q}: ${why(r, 400)}`);
    t.equal(r.body?.error_name, 'WrongData');
  }
  for (const route of ['sessions-interactions-bulk/', `sessions/${sid(1)}/interactions-bulk/`]) {
    for (const q of ['amt=0', 'amt=-3', 'amt=x', 'cursor=garbage'])
      t.same(errorOf(await api.get(route, { token, query: q })), WRONG_PARAMETER, `${route} ${q}`);
  }
});

t.test("resolving a session turns its interactions into the user's inferred ratings; later ones count too, with a warning", async (t) => {
  const { db, token } = await fresh();
  t.equal((await api.put('interaction-rules/', { rules: { teleport: { rating: 7, combine: 'max' } } }, { token })).status, 204);
  const s = sid(1);
  const u = uid(1);
  // The user already has an explicit rating (item 4) and an inferred one (item 5).
  t.equal((await api.put(`users/${u}/ratings/4/`, { rating: 2, timestamp: 10 }, { token })).status, 204);
  t.equal((await api.post(`users/${u}/interactions/5/`, { interaction_type: 'purchase', timestamp: 11 }, { token })).status, 200);
  t.equal(await count(db), 2);

  t.equal(
    (
      await postOwn(token, s, [
        { item_id: 1, interaction_type: 'purchase', timestamp: 100 },
        { item_id: 1, interaction_type: 'dislike', timestamp: 101 },
        { item_id: 1, interaction_type: 'VIEW', timestamp: 102 }, // 9.5, then 2 (replace), then max(2, 6)
        { item_id: 2, interaction_type: 'Teleport', timestamp: 103 },
        { item_id: 3, interaction_type: 'like', timestamp: 104 },
        { item_id: 4, interaction_type: 'like', timestamp: 105 }, // explicit rating wins
        { item_id: 5, interaction_type: 'view', timestamp: 106 }, // max keeps 9.5
      ])
    ).status,
    200,
  );
  t.equal(await count(db), 2, 'an unresolved session makes no rating');
  t.strictSame(await ratingMap(token, u), { 4: 2, 5: 9.5 });

  const r = await resolve(token, s, { user_id: u, timestamp: 1000 });
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(r.body, { warnings: [] }, 'a JSON object with warnings');
  t.strictSame(await ratingMap(token, u), { 1: 6, 2: 7, 3: 9, 4: 2, 5: 9.5 });
  const listed = await ratingsOf(token, u);
  t.strictSame(
    listed.find((x) => x.item_id === 3),
    { item_id: 3, rating: 9, timestamp: 104 },
    'the interaction timestamp',
  );
  t.strictSame(
    listed.find((x) => x.item_id === 4),
    { item_id: 4, rating: 2, timestamp: 10 },
    'the explicit rating unchanged',
  );
  t.equal(await count(db), 5);
  t.strictSame(
    (await api.get(`users/${u}/interactions-bulk/`, { token })).body.interactions.map((i: any) => i.item_id),
    [5],
    "the session's interactions stay the session's",
  );

  // Later interactions of the session count for the user, and their answers name the session.
  const later = await postOne(token, s, 3, { interaction_type: 'dislike', timestamp: 200 });
  t.equal(later.status, 200, why(later, 200));
  t.ok(hasWarning(later, s, 'resolved'), `warnings ${JSON.stringify(later.body?.warnings)}`);
  t.equal((await ratingMap(token, u))['3'], 2);
  const laterOwn = await postOwn(token, s.toUpperCase(), [{ item_id: 6, interaction_type: 'add_to_cart', timestamp: 201 }]);
  t.ok(hasWarning(laterOwn, s), `warnings ${JSON.stringify(laterOwn.body?.warnings)}`);
  const laterAll = await postAll(token, [
    { session_id: s, item_id: 7, interaction_type: 'click', timestamp: 202 },
    { session_id: sid(2), item_id: 7, interaction_type: 'purchase', timestamp: 203 },
  ]);
  t.equal(laterAll.status, 200);
  t.ok(hasWarning(laterAll, s), `warnings ${JSON.stringify(laterAll.body?.warnings)}`);
  t.notOk(hasWarning(laterAll, sid(2)), 'the unresolved session is not named');
  t.strictSame(
    await ratingMap(token, u),
    { 1: 6, 2: 7, 3: 2, 4: 2, 5: 9.5, 6: 8, 7: 6.5 },
    'the unresolved session did not rate item 7 with 9.5',
  );
  t.equal(await count(db), 7);
  const plain = await postOne(token, sid(2), 8, { interaction_type: 'view' });
  t.strictSame(plain.body, { warnings: [] }, 'no warning for an unresolved session');

  // Resolving again: 400 WrongData, to the same or another user; the link is unchanged.
  for (const user of [u, uid(2)]) {
    const again = await resolve(token, s, { user_id: user });
    t.equal(again.status, 400, why(again, 400));
    t.equal(again.body?.error_name, 'WrongData');
  }
  t.strictSame((await resolvedWalk(token)).links, [{ session_id: s, user_id: u, timestamp: 1000 }]);
  t.strictSame(await ratingMap(token, uid(2)), {});

  // A session resolved before any interaction: its interactions count from then on.
  t.equal((await resolve(token, sid(9), { user_id: uid(3) })).status, 200);
  t.strictSame(await ratingMap(token, uid(3)), {});
  const first = await postOne(token, sid(9), 1, { interaction_type: 'like', timestamp: 5 });
  t.ok(hasWarning(first, sid(9)));
  t.strictSame(await ratingMap(token, uid(3)), { 1: 9 });
});

t.test(
  'a session type without rule: 503 and nothing stored; identifier types are checked; a rejected request stores nothing',
  async (t) => {
    const { db, token } = await fresh();
    t.equal((await postOne(token, sid(1), 1, { interaction_type: 'view', timestamp: 1 })).status, 200);
    t.equal((await resolve(token, sid(1), { user_id: uid(1), timestamp: 2 })).status, 200);
    const before = await dbKeys(db);
    const body = { interaction_type: 'view', timestamp: 3 };

    t.same(errorOf(await postOne(token, sid(1), 2, { interaction_type: 'teleport' })), NO_RULE);
    t.same(
      errorOf(
        await postAll(token, [
          { session_id: sid(2), item_id: 1, ...body },
          { session_id: sid(3), item_id: 1, interaction_type: 'warp' },
        ]),
      ),
      NO_RULE,
    );

    // The default session_id_type is uuid.
    const jwt = await api.post('login/jwt/', undefined, { token });
    t.equal(jwt.body?.database?.session_id_type, 'uuid');
    for (const bad of ['abc', '12', `${sid(1)}0`, 'not-a-uuid-at-all']) {
      t.same(errorOf(await postOne(token, bad, 1, body)), BAD_SESSION, `one: session ${bad}`);
      t.same(errorOf(await postOwn(token, bad, [{ item_id: 1, ...body }])), BAD_SESSION, `own: session ${bad}`);
      t.same(errorOf(await api.get(`sessions/${path(bad)}/interactions-bulk/`, { token })), BAD_SESSION, `GET own: session ${bad}`);
      t.same(errorOf(await resolve(token, bad, { user_id: uid(2) })), BAD_SESSION, `resolve: session ${bad}`);
    }
    for (const bad of ['abc', 5, '', true]) {
      const r = await postAll(token, [
        { session_id: sid(2), item_id: 1, ...body },
        { session_id: bad, item_id: 1, ...body },
      ]);
      t.same(errorOf(r), BAD_SESSION, `bulk: session ${JSON.stringify(bad)}`);
    }
    t.same(
      errorOf(
        await postAll(token, [
          { session_id: sid(2), item_id: 1, ...body },
          { item_id: 1, ...body },
        ]),
      ),
      WRONG_DATA_TYPE,
      'bulk: no session_id',
    );
    for (const bad of ['abc', '0', '-2']) t.same(errorOf(await postOne(token, sid(2), bad, body)), BAD_ITEM, `one: item ${bad}`);
    t.same(
      errorOf(
        await postAll(token, [
          { session_id: sid(2), item_id: 1, ...body },
          { session_id: sid(2), item_id: 'x', ...body },
        ]),
      ),
      BAD_ITEM,
    );
    t.same(
      errorOf(
        await postOwn(token, sid(2), [
          { item_id: 1, ...body },
          { item_id: 2, interaction_type: 'v'.repeat(65) },
        ]),
      ),
      WRONG_DATA_TYPE,
      'type of 65 characters',
    );

    // resolve/: the user and the timestamp are checked; nothing is linked.
    for (const bad of ['nope', 7, ''])
      t.same(
        errorOf(await resolve(token, sid(2), { user_id: bad })),
        bad === '' ? WRONG_DATA_TYPE : BAD_USER,
        `resolve: user ${JSON.stringify(bad)}`,
      );
    t.same(errorOf(await resolve(token, sid(2), {})), WRONG_DATA_TYPE, 'resolve without user_id');
    for (const ts of ['now', 4e9, true])
      t.same(
        errorOf(await resolve(token, sid(2), { user_id: uid(2), timestamp: ts })),
        WRONG_DATA_TYPE,
        `resolve: timestamp ${JSON.stringify(ts)}`,
      );
    t.same(errorOf(await api.post('resolved-sessions/', { users_id: ['nope'] }, { token })), BAD_USER);

    t.strictSame(await dbKeys(db), before, 'no key created or removed');
    t.equal((await allOf(token)).length, 1);
    t.strictSame((await resolvedWalk(token)).links, [{ session_id: sid(1), user_id: uid(1), timestamp: 2 }]);
    t.equal(await count(db), 1);
  },
);

t.test('resolved-sessions/: links in resolution order, the users_id filter, amt and cursor', async (t) => {
  const { db, token } = await fresh();
  // Resolution order differs from session and user id order; timestamps given (one defaulted).
  const plan: [number, number, number | undefined][] = [
    [5, 2, 500],
    [1, 0, 100],
    [7, 2, 50],
    [3, 1, 3000],
    [2, 0, undefined],
    [9, 2, 10],
    [4, 1, 20],
  ];
  const before = Date.now() / 1000;
  for (const [s, u, ts] of plan) {
    const r = await resolve(token, sid(s), { user_id: uid(u), ...(ts === undefined ? {} : { timestamp: ts }) });
    t.equal(r.status, 200, why(r, 200));
  }
  const after = Date.now() / 1000;
  const first = await api.post('resolved-sessions/', {}, { token });
  t.equal(first.status, 200, why(first, 200));
  t.equal(first.body.has_next, false);
  t.equal(first.body.next_cursor, '');
  t.strictSame(first.body.warnings, []);
  const links: Link[] = first.body.resolved_sessions;
  t.strictSame(
    links.map((l) => [l.session_id, l.user_id]),
    plan.map(([s, u]) => [sid(s), uid(u)]),
    'resolution order',
  );
  t.strictSame(
    links.map((l) => l.timestamp).filter((_, k) => k !== 4),
    [500, 100, 50, 3000, 10, 20],
  );
  t.ok(links[4]!.timestamp >= before - 1 && links[4]!.timestamp <= after + 1, `default timestamp ${links[4]!.timestamp} is now`);
  t.strictSame((await api.post('resolved-sessions/', undefined, { token })).body.resolved_sessions, links, 'no body at all');

  for (const amt of [1, 2, 3, 6, 7, 8]) {
    const w = await resolvedWalk(token, { amt });
    t.strictSame(w.links, links, `amt=${amt}`);
    t.equal(w.pages.length, Math.ceil(7 / amt), `amt=${amt}: pages`);
    t.ok(w.pages.slice(0, -1).every((p) => p.resolved_sessions.length === amt));
  }
  const byUser = (us: number[]) => links.filter((l) => us.map(uid).includes(String(l.user_id)));
  t.strictSame((await resolvedWalk(token, { users_id: [uid(2)] })).links, byUser([2]), 'one user: resolution order');
  t.strictSame(
    (await resolvedWalk(token, { users_id: [uid(1).toUpperCase(), uid(0)] })).links,
    byUser([0, 1]),
    'two users (one upper case): resolution order, not filter order',
  );
  t.strictSame((await resolvedWalk(token, { users_id: [uid(2), uid(0)], amt: 2 })).links, byUser([0, 2]), 'filtered, two at a time');
  const pages = (await resolvedWalk(token, { users_id: [uid(2), uid(0)], amt: 2 })).pages;
  t.strictSame(
    pages.map((p) => p.resolved_sessions.length),
    [2, 2, 1],
  );
  t.strictSame((await resolvedWalk(token, { users_id: [uid(8)] })).links, [], 'a user without sessions');
  t.strictSame((await resolvedWalk(token, { users_id: [] })).links, [], 'an empty filter');
  t.strictSame((await resolvedWalk(token, { users_id: [uid(2), uid(2)] })).links, byUser([2]), 'a user named twice: each session once');

  // A cursor is reusable and does not depend on the amt that produced it.
  const p1 = await api.post('resolved-sessions/', { amt: 3 }, { token });
  const c = p1.body.next_cursor;
  t.strictSame(
    (await api.post('resolved-sessions/', { amt: 3, cursor: c }, { token })).body,
    (await api.post('resolved-sessions/', { amt: 3, cursor: c }, { token })).body,
  );
  t.strictSame((await api.post('resolved-sessions/', { amt: 1, cursor: c }, { token })).body.resolved_sessions, links.slice(3, 4));
  t.strictSame(
    (await api.post('resolved-sessions/', { cursor: '' }, { token })).body.resolved_sessions,
    links,
    "cursor '' is the first page",
  );
  for (const amt of [0, -1, 2.5, 'x']) {
    const r = await api.post('resolved-sessions/', { amt }, { token });
    t.equal(r.status, 400, `amt ${JSON.stringify(amt)}: ${why(r, 400)}`);
    t.equal(r.body?.error_name, 'WrongData');
  }
  t.same(errorOf(await api.post('resolved-sessions/', { cursor: 'garbage' }, { token })), WRONG_PARAMETER, 'a bad cursor');

  t.equal(await count(db), 0, 'resolving sessions without interactions makes no rating');
});

t.test('a frontend login naming a user and a session resolves the session; logging in again warns and changes nothing', async (t) => {
  const { db, token } = await fresh();
  const u = uid(1);
  const s = sid(1);
  t.equal(
    (
      await postOwn(token, s, [
        { item_id: 1, interaction_type: 'purchase', timestamp: 10 },
        { item_id: 2, interaction_type: 'like', timestamp: 11 },
      ])
    ).status,
    200,
  );
  t.strictSame(await ratingMap(token, u), {});

  // A login naming only the session (or only the user) resolves nothing.
  const account = await frontendAccount();
  const onlySession = await account.login(db, { session: s });
  t.equal(onlySession.status, 200, why(onlySession, 200));
  t.equal((await account.login(db, { user: u })).status, 200);
  t.strictSame((await resolvedWalk(token)).links, []);

  const before = Date.now() / 1000;
  const login = await account.login(db, { user: u.toUpperCase(), session: s.toUpperCase() });
  const after = Date.now() / 1000;
  t.equal(login.status, 200, why(login, 200));
  t.equal(login.body.frontend_user_id, u);
  t.equal(login.body.frontend_session_id, s);
  t.strictSame(login.body.warnings, []);
  const links = (await resolvedWalk(token)).links;
  t.equal(links.length, 1);
  t.match(links[0], { session_id: s, user_id: u });
  t.ok(links[0]!.timestamp >= before - 1 && links[0]!.timestamp <= after + 1, `resolved now (${links[0]!.timestamp})`);
  t.strictSame(await ratingMap(token, u), { 1: 9.5, 2: 9 }, "the session's interactions became the user's ratings");
  t.equal(await count(db), 2);

  // The token's later session interactions count for the user, with the warning.
  const ftoken = login.body.token as string;
  const post = await postOne(ftoken, '~me', 3, { interaction_type: 'add_to_cart', timestamp: 12 });
  t.equal(post.status, 200, why(post, 200));
  t.ok(hasWarning(post, s), `warnings ${JSON.stringify(post.body?.warnings)}`);
  t.equal((await ratingMap(token, u))['3'], 8);

  // Again with the same pair: 200, nothing to warn about (refreshes do this too); with another
  // user: 200 with a warning. The link stays.
  const same = await account.login(db, { user: u, session: s });
  t.equal(same.status, 200, why(same, 200));
  t.strictSame(same.body.warnings, [], 'same pair: no warning');
  const refreshed = await api.post('login/refresh-token/', { refresh_token: same.body.refresh_token });
  t.equal(refreshed.status, 200, why(refreshed, 200));
  t.strictSame(refreshed.body.warnings, [], 'a refresh of that login: no warning');
  const other = await account.login(db, { user: uid(2), session: s });
  t.equal(other.status, 200, why(other, 200));
  t.ok(hasWarning(other, s), `another user: warnings ${JSON.stringify(other.body?.warnings)}`);
  t.type(other.body.token, 'string');
  t.strictSame((await resolvedWalk(token)).links, links);
  t.strictSame(await ratingMap(token, uid(2)), {});
  // A backend resolving it now is refused too.
  t.equal((await resolve(token, s, { user_id: u })).status, 400);

  // A frontend service login resolves the same way.
  const name = unique('svc');
  t.equal((await api.post('accounts/service/', { name, role: 'frontend' }, { token: root })).status, 200);
  const key = (await api.post('accounts/service/keys/', { name }, { token: root })).body.key;
  t.equal((await postOne(token, sid(2), 5, { interaction_type: 'view', timestamp: 20 })).status, 200);
  const svc = await api.post('login/service/', { name, password: key, db_id: db, frontend_user_id: uid(3), frontend_session_id: sid(2) });
  t.equal(svc.status, 200, why(svc, 200));
  t.strictSame(svc.body.warnings, []);
  t.strictSame(
    (await resolvedWalk(token)).links.map((l) => [l.session_id, l.user_id]),
    [
      [s, u],
      [sid(2), uid(3)],
    ],
  );
  t.strictSame(await ratingMap(token, uid(3)), { 5: 6 });

  // A non-frontend account naming both ids resolves nothing (the ids are ignored with a warning).
  const backendEmail = `${unique('backend')}@test.local`;
  t.equal(
    (await api.post('accounts/individual/', { email: backendEmail, role: 'backend', password: PASSWORD }, { token: root })).status,
    200,
  );
  const b = await api.post('login/individual/', {
    email: backendEmail,
    password: PASSWORD,
    db_id: db,
    frontend_user_id: uid(4),
    frontend_session_id: sid(4),
  });
  t.equal(b.status, 200);
  t.ok(hasWarning(b, 'ignored'));
  t.equal((await resolvedWalk(token)).links.length, 2);
});

for (const [label, extra, own, other] of [
  ['uuid sessions', {}, sid(1), sid(2)],
  ['urlsafe sessions', { user_id_type: 'urlsafe', session_id_type: 'urlsafe' }, 'my_session-1', 'other_session'],
] as const) {
  t.test(
    `${label}: a frontend token with frontend_session_id posts only for its own session; ~me names it; listings are refused`,
    async (t) => {
      const { db, token } = await fresh(extra);
      const mine = await frontendToken(db, { session: own });
      const one = await postOne(mine, own, 1, { interaction_type: 'view', timestamp: 1 });
      t.equal(one.status, 200, why(one, 200));
      t.strictSame(one.body, { warnings: [] });
      t.equal((await postOne(mine, '~me', 2, { interaction_type: 'click', timestamp: 2 })).status, 200, '~me');
      t.equal((await postOwn(mine, '~me', [{ item_id: 3, interaction_type: 'like', timestamp: 3 }])).status, 200, 'own bulk ~me');
      t.equal((await postOwn(mine, own, [{ item_id: 4, interaction_type: 'view', timestamp: 4 }])).status, 200);
      t.strictSame(
        (await ownOf(token, own)).map((i) => [i.session_id, i.item_id]),
        [
          [own, 1],
          [own, 2],
          [own, 3],
          [own, 4],
        ],
      );
      if (label === 'uuid sessions')
        t.equal((await postOne(mine, String(own).toUpperCase(), 5, { interaction_type: 'view' })).status, 200, 'upper case');

      const before = await dbKeys(db);
      t.same(errorOf(await postOne(mine, other, 1, { interaction_type: 'view' })), NOT_OWN_SESSION, 'one, another session');
      t.same(errorOf(await postOwn(mine, other, [{ item_id: 1, interaction_type: 'view' }])), NOT_OWN_SESSION, 'own bulk, another session');
      const refused: [string, () => Promise<Res>][] = [
        ['GET sessions/<own>/interactions-bulk/', () => api.get(`sessions/${path(own)}/interactions-bulk/`, { token: mine })],
        ['GET sessions/~me/interactions-bulk/', () => api.get('sessions/~me/interactions-bulk/', { token: mine })],
        ['GET sessions-interactions-bulk/', () => api.get('sessions-interactions-bulk/', { token: mine })],
        ['POST sessions-interactions-bulk/', () => postAll(mine, [{ session_id: own, item_id: 9, interaction_type: 'view' }])],
        ['POST sessions/<own>/resolve/', () => resolve(mine, own, { user_id: extra.user_id_type === 'urlsafe' ? 'someone' : uid(1) })],
        ['POST sessions/~me/resolve/', () => resolve(mine, '~me', { user_id: extra.user_id_type === 'urlsafe' ? 'someone' : uid(1) })],
        ['POST resolved-sessions/', () => api.post('resolved-sessions/', {}, { token: mine })],
      ];
      for (const [what, call] of refused) t.same(errorOf(await call()), INCORRECT_ROLE, what);
      t.strictSame(await dbKeys(db), before, 'nothing written');
      t.strictSame(await ownOf(token, other), []);

      // Without frontend_session_id: no session, and no ~me; a backend has no ~me either. A token naming
      // only a user has no session either.
      const plain = await frontendToken(db);
      const userOnly = await frontendToken(db, { user: extra.user_id_type === 'urlsafe' ? 'someone' : uid(1) });
      for (const tok of [plain, userOnly]) {
        t.same(
          errorOf(await postOne(tok, other, 7, { interaction_type: 'view', timestamp: 7 })),
          NOT_OWN_SESSION,
          'one, without frontend_session_id',
        );
        t.same(
          errorOf(await postOwn(tok, other, [{ item_id: 7, interaction_type: 'view' }])),
          NOT_OWN_SESSION,
          'own bulk, without frontend_session_id',
        );
      }
      t.strictSame(await dbKeys(db), before, 'nothing written');
      for (const tok of [plain, token, userOnly]) {
        t.same(errorOf(await postOne(tok, '~me', 1, { interaction_type: 'view' })), NOT_OWN_SESSION, 'one ~me');
        t.same(errorOf(await postOwn(tok, '~me', [{ item_id: 1, interaction_type: 'view' }])), NOT_OWN_SESSION, 'own bulk ~me');
      }
    },
  );
}

t.test('roles: root, manager and backend use every session endpoint', async (t) => {
  const { db } = await fresh();
  for (const [k, role] of ['root', 'manager', 'backend'].entries()) {
    const tok = await tokenFor(api, root, role, db);
    const s = sid(k + 1);
    t.equal((await postOne(tok, s, 1, { interaction_type: 'view', timestamp: 1 })).status, 200, `${role} POST one`);
    t.equal((await postOwn(tok, s, [{ item_id: 2, interaction_type: 'view', timestamp: 2 }])).status, 200, `${role} POST own`);
    t.equal((await postAll(tok, [{ session_id: s, item_id: 3, interaction_type: 'view', timestamp: 3 }])).status, 200, `${role} POST all`);
    t.strictSame(
      (await ownOf(tok, s)).map((i) => i.item_id),
      [1, 2, 3],
      `${role} GET own`,
    );
    t.equal((await api.get('sessions-interactions-bulk/', { token: tok })).status, 200, `${role} GET all`);
    t.equal((await resolve(tok, s, { user_id: uid(k + 1) })).status, 200, `${role} resolve`);
    t.equal((await api.post('resolved-sessions/', {}, { token: tok })).body.resolved_sessions.length, k + 1, `${role} resolved-sessions`);
    t.strictSame(await ratingMap(tok, uid(k + 1)), { 1: 6, 2: 6, 3: 6 });
  }
});

t.test('concurrent writes: each request stored once, and only answers about a resolved session carry its warning', async (t) => {
  const { db, token } = await fresh();
  t.equal((await resolve(token, sid(1), { user_id: uid(1) })).status, 200);
  // Frontend tokens each bound to its session.
  const frontend = new Map<string, string>();
  for (let s = 1; s <= 6; s++) frontend.set(sid(s), await frontendToken(db, { session: sid(s) }));
  const calls: Promise<[number, Res]>[] = [];
  for (let k = 0; k < 60; k++) {
    const s = k % 3 === 0 ? sid(1) : sid(2 + (k % 5));
    const tok = k % 2 === 0 ? token : frontend.get(s)!;
    const type = k % 4 === 0 ? 'purchase' : 'view';
    calls.push(
      (k % 2 === 0
        ? postOne(tok, s, 100 + (k % 10), { interaction_type: type, timestamp: k })
        : postOwn(tok, s, [{ item_id: 100 + (k % 10), interaction_type: type, timestamp: k }])
      ).then((r) => [k, r]),
    );
  }
  // A user-side burst at the same time.
  const userCalls = range(0, 30).map((k) =>
    api.post(`users/${uid(9)}/interactions/${1 + (k % 6)}/`, { interaction_type: k % 2 ? 'purchase' : 'view', timestamp: k }, { token }),
  );
  const [results, userResults] = await Promise.all([Promise.all(calls), Promise.all(userCalls)]);
  for (const [k, r] of results) {
    t.equal(r.status, 200, `request ${k}: ${why(r, 200)}`);
    if (k % 3 === 0) t.ok(hasWarning(r, sid(1)), `request ${k} (resolved session): warning`);
    else t.strictSame(r.body.warnings, [], `request ${k} (unresolved session): no warning`);
  }
  for (const r of userResults) t.strictSame(r.body, { warnings: [] });

  const all = await allOf(token);
  t.equal(all.length, 60);
  t.strictSame(
    all.map((i) => i.timestamp).sort((a, b) => a - b),
    range(0, 60),
    'each request once',
  );
  for (let s = 1; s <= 6; s++) {
    const mine = await ownOf(token, sid(s));
    t.strictSame(
      mine,
      all.filter((i) => i.session_id === sid(s)),
      `session ${s}: its own listing is the same interactions in the same order`,
    );
  }
  // The resolved session's interactions: items 100, 103, 106, 109, 102, 105, 108, 101, 104, 107 (k multiple of 3);
  // purchases where k is a multiple of 12.
  const expected: Record<string, number> = {};
  for (let k = 0; k < 60; k += 3) {
    const item = String(100 + (k % 10));
    expected[item] = Math.max(expected[item] ?? 0, k % 4 === 0 ? 9.5 : 6);
  }
  t.strictSame(await ratingMap(token, uid(1)), expected);
  t.strictSame(await ratingMap(token, uid(9)), { 1: 6, 2: 9.5, 3: 6, 4: 9.5, 5: 6, 6: 9.5 });
  t.equal((await api.get(`users/${uid(9)}/interactions-bulk/`, { token })).body.interactions.length, 30);
  t.equal(await count(db), 10 + 6);
});

t.test('a token bound to a deleted database gets DATABASE_NOT_FOUND on the session endpoints; nothing is recreated', async (t) => {
  const { db, token } = await fresh();
  t.equal((await postOne(token, sid(1), 1, { interaction_type: 'view' })).status, 200);
  t.equal((await resolve(token, sid(1), { user_id: uid(1) })).status, 200);
  const account = await frontendAccount();
  const admin = await tokenFor(api, root, 'root', db);
  const d = await api.delete('databases/current/', undefined, { token: admin });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);

  const calls: [string, () => Promise<Res>][] = [
    ['POST sessions/<s>/items/<i>/interactions/', () => postOne(token, sid(1), 2, { interaction_type: 'view' })],
    ['POST sessions/<s>/interactions-bulk/', () => postOwn(token, sid(2), [{ item_id: 2, interaction_type: 'view' }])],
    ['POST sessions-interactions-bulk/', () => postAll(token, [{ session_id: sid(3), item_id: 2, interaction_type: 'like' }])],
    ['GET sessions/<s>/interactions-bulk/', () => api.get(`sessions/${sid(1)}/interactions-bulk/`, { token })],
    ['GET sessions-interactions-bulk/', () => api.get('sessions-interactions-bulk/', { token })],
    ['POST sessions/<s>/resolve/', () => resolve(token, sid(2), { user_id: uid(2) })],
    ['POST sessions/<s>/resolve/ (already resolved)', () => resolve(token, sid(1), { user_id: uid(2) })],
    ['POST resolved-sessions/', () => api.post('resolved-sessions/', {}, { token })],
    ['POST resolved-sessions/ filtered', () => api.post('resolved-sessions/', { users_id: [uid(1)] }, { token })],
  ];
  for (const [what, call] of calls) t.same(errorOf(await call()), DATABASE_NOT_FOUND, what);
  // A login naming the deleted database cannot resolve anything either.
  const login = await account.login(db, { user: uid(5), session: sid(5) });
  t.not(login.status, 200, `login on a deleted database answered ${login.status}`);

  const left = (await redis.keys('*')).filter((key) => key.startsWith(`{db:${db}}`));
  t.same(left, [], 'the refused requests recreated no key of the database');
});

t.test("DELETE users/<u>/*/ also forgets the user's session links: later session interactions make no rating for it", async (t) => {
  const { db, token } = await fresh();
  const s = sid(7);
  const u = uid(7);
  t.equal((await resolve(token, s, { user_id: u })).status, 200);
  t.equal((await postOne(token, s, 1, { interaction_type: 'view', timestamp: 5 })).status, 200);
  t.strictSame(await ratingMap(token, u), { 1: 6 });
  t.equal((await api.delete(`users/${u}/*/`, undefined, { token })).status, 204);
  t.strictSame((await resolvedWalk(token)).links, [], 'the link is gone');
  const after = await postOne(token, s, 2, { interaction_type: 'view', timestamp: 6 });
  t.equal(after.status, 200, why(after, 200));
  t.strictSame(after.body.warnings, [], 'the session is no longer resolved');
  t.strictSame(await ratingMap(token, u), {}, 'no rating comes back for the deleted user');
  t.equal(await count(db), 0);
  t.equal((await resolve(token, s, { user_id: uid(8) })).status, 200, 'the session can be resolved again');
});
