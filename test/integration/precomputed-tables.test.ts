// Precomputed recommendation tables (definition, the precomputed_tables build task, reads, errors,
// roles, deletion), against the trained database with planted structure (test/helpers/reco.ts). Two
// recd processes on one private Redis, real HTTP: a second process sees builds, rebuilds and
// deletions; HTTP pipelining of warm reads. Everything but the second-process checks goes through
// process A.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import type { Api, Res } from '../helpers/api.js';
import {
  BAD_ITEM,
  BAD_USER,
  freshDatabase,
  hasWarning,
  INCORRECT_ROLE,
  NOT_OWN_USER,
  uid,
  why,
  WRONG_DATA_TYPE,
  WRONG_PARAMETER,
} from '../helpers/feedback.js';
import { errorOf, frontendToken, rootToken, tokenFor } from '../helpers/fixtures.js';
import { count, isA, isB, pipelined, qs, RECO_ENV, tasksOf, trainedDatabase, until, withoutId, type Q, type Tt } from '../helpers/reco.js';
import { startPair } from '../helpers/stack.js';
import { triggerAfterRuns } from '../helpers/trigger.js';

const pair = await startPair(RECO_ENV);
t.teardown(() => pair.close());
const api = pair.a.api;
const apiB = pair.b.api;
const root = await rootToken(api);
const { db, token, modelId } = await trainedDatabase(api, root);

const notFound = (name: string) => ({ status: 404, code: 60, errorName: 'NotFoundError', name });
const ITEM_NOT_FOUND = notFound('ITEM_NOT_FOUND');
const USER_NOT_FOUND = notFound('USER_NOT_FOUND');
const TABLE_NOT_FOUND = notFound('TABLE_NOT_FOUND');

const A_LOVER = uid(0);

// ---- requests --------------------------------------------------------------------------------------

const itemReco = (item: number | string, q: Q = {}, tok = token, on: Api = api) =>
  on.get(`recommendation/items/${item}/items/`, { token: tok, query: qs(q) });

// ---- precomputed tables ---------------------------------------------------------------------------------

const putTable = (name: string, body: Record<string, unknown>, tok = token, on: Api = api) =>
  on.put(`precomputed-tables/${name}/`, body, { token: tok });
const listTables = (tok = token) => api.get('precomputed-tables/', { token: tok });
const deleteTable = (name: string, tok = token) => api.delete(`precomputed-tables/${name}/`, undefined, { token: tok });
const preItem = (item: number | string, table: string | undefined, tok = token, on: Api = api) =>
  on.get(`recommendation/precomputed/items/${item}/items/`, { token: tok, query: qs({ table }) });
const preUser = (user: string, table: string | undefined, tok = token, on: Api = api) =>
  on.get(`recommendation/precomputed/users/${user}/items/`, { token: tok, query: qs({ table }) });

// Waits for the precomputed_tables task record to complete.
async function completed(t: Tt, taskId: string, what: string): Promise<void> {
  const rows = await until(
    `${what}: task ${taskId} settled`,
    () => tasksOf(api, token, 'precomputed_tables'),
    (ts) => ts.some((x) => x.task_id === taskId && (x.status === 'COMPLETED' || x.status === 'FAILED')),
  );
  const row = rows.find((x) => x.task_id === taskId)!;
  t.equal(row.status, 'COMPLETED', `${what}: the precomputed_tables task completed: ${JSON.stringify(row)}`);
}

// Defines a table and waits for its build; returns the PUT answer.
async function defineAndBuild(t: Tt, name: string, body: Record<string, unknown>): Promise<Res> {
  const r = await putTable(name, body);
  t.equal(r.status, 200, `PUT precomputed-tables/${name}/: ${why(r, 200)}`);
  t.strictSame(Object.keys(r.body ?? {}).sort(), ['task_id', 'warnings'], 'the answer is {task_id, warnings}');
  t.type(r.body?.task_id, 'string', 'task_id is a string');
  await completed(t, r.body.task_id, `table ${name}`);
  return r;
}

function precomputedOf(t: Tt, r: Res, what: string, amt: number): number[] {
  t.equal(r.status, 200, `${what}: ${why(r, 200)}`);
  if (r.status !== 200) return [];
  t.strictSame(
    Object.keys(r.body).sort(),
    ['items_id', 'recommendation_id', 'warnings'],
    `${what}: {items_id, recommendation_id, warnings}, no next_cursor`,
  );
  const ids: number[] = r.body.items_id;
  t.equal(ids.length, amt, `${what}: ${amt} items`);
  t.equal(new Set(ids).size, ids.length, `${what}: distinct`);
  t.ok(
    ids.every((i) => typeof i === 'number' && i >= 1 && i <= 40),
    `${what}: items of the model: ${JSON.stringify(ids)}`,
  );
  return ids;
}

t.test('precomputed item_to_items table: built by the precomputed_tables task, read like the live endpoint', async (t) => {
  await defineAndBuild(t, 'similar', { reco_type: 'item_to_items', amt: 5 });
  const list = await listTables();
  t.equal(list.status, 200, why(list, 200));
  const def = list.body?.tables?.find((x: { name: string }) => x.name === 'similar');
  t.ok(def, `listed: ${JSON.stringify(list.body)}`);
  t.equal(def?.reco_type, 'item_to_items', 'reco_type');
  t.equal(def?.amt, 5, 'amt');
  t.ok(def?.built, 'built');
  t.equal(def?.built?.model_id, modelId, 'built from the served model');
  t.type(def?.built?.built_at, 'number', 'built_at is a number');
  t.ok(Math.abs(def?.built?.built_at - Date.now() / 1000) < 120, 'built_at is in seconds, recent');
  t.ok(def?.built?.rows >= 40, `a row per item: ${def?.built?.rows}`);
  t.strictSame(list.body?.warnings, [], 'no warnings');

  for (const item of [1, 7, 20, 21, 33, 40]) {
    const r = await preItem(item, 'similar');
    const ids = precomputedOf(t, r, `precomputed item ${item}`, 5);
    t.strictSame(r.body.warnings, [], `item ${item}: no warnings`);
    t.notOk(ids.includes(item), `item ${item}: not itself`);
    t.strictSame(ids, (await itemReco(item, { amt: 5 })).body.items_id, `item ${item}: the top 5 of the live endpoint`);
  }
  // A second read is the same (served from what the process holds).
  t.strictSame(withoutId((await preItem(7, 'similar')).body), withoutId((await preItem(7, 'similar')).body), 'the same answer twice');
  t.strictSame((await preItem('7', 'similar')).body.items_id, (await preItem(7, 'similar')).body.items_id, 'the item id as a string');
  const explained = await api.get('recommendation/precomputed/items/7/items/', { token, query: 'table=similar&explain=true' });
  t.strictSame(
    explained.body.explanations,
    explained.body.items_id.map((item_id: number) => ({ item_id, source: 'precomputed_table', score: null, because: [], rules: [] })),
    'explain=true: every item from the table',
  );
  t.equal(
    (await api.get('recommendation/precomputed/items/7/items/', { token, query: 'table=similar&scenario=x' })).status,
    404,
    'no precomputed_item_to_items scenario x yet',
  );
  t.equal(
    (await api.put('scenarios/precomputed_item_to_items/x/', { scenario_type: 'case', case: { table: 'similar' } }, { token })).status,
    200,
  );
  const scenario = await api.get('recommendation/precomputed/items/7/items/', { token, query: 'scenario=x' });
  t.equal(scenario.status, 200, why(scenario, 200));
  t.strictSame(
    withoutId(scenario.body),
    await preItem(7, 'similar').then((r) => withoutId(r.body)),
    "the scenario's case.table names the table",
  );
  t.equal(
    (
      await api.put(
        'scenarios/precomputed_item_to_items/y/',
        { scenario_type: 'case', case: { table: 'similar', amt: 2, filters: ['genre:eq:a'] } },
        { token },
      )
    ).status,
    200,
  );
  const cut = await api.get('recommendation/precomputed/items/7/items/', { token, query: 'scenario=y' });
  t.equal(cut.status, 200, why(cut, 200));
  const row = (await preItem(7, 'similar')).body.items_id as number[];
  t.strictSame(cut.body.items_id, row.filter((i) => i <= 20).slice(0, 2), `case amt and filters cut the row ${JSON.stringify(row)}`);
  t.equal(
    (await api.get('recommendation/precomputed/items/7/items/', { token, query: 'table=nothere&scenario=x' })).status,
    404,
    'the runtime table wins over the case',
  );
});

t.test('precomputed profile_to_items table', async (t) => {
  await defineAndBuild(t, 'forusers', { reco_type: 'profile_to_items', amt: 5 });
  const def = (await listTables()).body?.tables?.find((x: { name: string }) => x.name === 'forusers');
  t.equal(def?.reco_type, 'profile_to_items', 'listed with its reco_type');
  t.equal(def?.built?.model_id, modelId, 'built from the served model');
  t.ok(def?.built?.rows >= 70, `a row per user: ${def?.built?.rows}`);
  for (const u of [0, 5, 29]) {
    const ids = precomputedOf(t, await preUser(uid(u), 'forusers'), `user ${u}`, 5);
    t.ok(count(ids, isA) >= 4, `A lover ${u}: A items: ${JSON.stringify(ids)}`);
  }
  for (const u of [30, 44, 59]) {
    const ids = precomputedOf(t, await preUser(uid(u), 'forusers'), `user ${u}`, 5);
    t.ok(count(ids, isB) >= 4, `B lover ${u}: B items: ${JSON.stringify(ids)}`);
  }
  // A user created after the build has no row yet.
  const late = uid(201);
  t.equal((await api.put(`users/${late}/properties/`, { user: { age: 20 } }, { token })).status, 200);
  const r = await preUser(late, 'forusers');
  t.equal(r.status, 200, why(r, 200));
  t.strictSame(r.body?.items_id, [], 'no items');
  t.ok(hasWarning(r, 'newer than the table'), `a warning: ${JSON.stringify(r.body?.warnings)}`);
  t.same(errorOf(await preUser(uid(999), 'forusers')), USER_NOT_FOUND, 'unknown user');
  t.same(errorOf(await preUser('not-a-uuid', 'forusers')), BAD_USER, 'malformed user');
});

t.test('precomputed tables errors', async (t) => {
  t.same(errorOf(await preItem(1, 'nosuch')), TABLE_NOT_FOUND, 'item: unknown table');
  t.same(errorOf(await preUser(A_LOVER, 'nosuch')), TABLE_NOT_FOUND, 'user: unknown table');
  t.same(errorOf(await preItem(1, undefined)), WRONG_PARAMETER, 'item: no table');
  t.same(errorOf(await preUser(A_LOVER, undefined)), WRONG_PARAMETER, 'user: no table');
  t.same(errorOf(await preItem(1, '')), WRONG_PARAMETER, 'item: table empty');
  t.same(errorOf(await preItem(1, 'forusers')), WRONG_DATA_TYPE, 'item endpoint on a profile_to_items table');
  t.same(errorOf(await preUser(A_LOVER, 'similar')), WRONG_DATA_TYPE, 'user endpoint on an item_to_items table');
  t.same(errorOf(await preItem(999, 'similar')), ITEM_NOT_FOUND, 'unknown item');
  t.same(errorOf(await preItem('abc', 'similar')), BAD_ITEM, 'malformed item');

  for (const body of [{ reco_type: 'nope', amt: 5 }, { reco_type: 5 }, { reco_type: null }, { reco_type: 'session_to_items', amt: 5 }]) {
    t.same(errorOf(await putTable('bad', body)), WRONG_PARAMETER, `PUT ${JSON.stringify(body)}`);
  }
  // A missing reco_type fails the body schema (a required field): WRONG_DATA_TYPE.
  t.same(errorOf(await putTable('bad', { amt: 5 })), WRONG_DATA_TYPE, 'PUT without reco_type');
  for (const amt of [65, 0, -1, 1.5, 'x', null]) {
    t.same(errorOf(await putTable('bad', { reco_type: 'item_to_items', amt })), WRONG_PARAMETER, `PUT amt ${JSON.stringify(amt)}`);
  }
  t.notOk(
    (await listTables()).body?.tables?.some((x: { name: string }) => x.name === 'bad'),
    'a refused definition is not stored',
  );

  // Defined but not built: a database without a model cannot build it.
  const fresh = await freshDatabase(api, root);
  const put = await putTable('pending', { reco_type: 'item_to_items', amt: 5 }, fresh.token);
  t.equal(put.status, 200, `PUT on a database without a model: ${why(put, 200)}`);
  const listed = await api.get('precomputed-tables/', { token: fresh.token });
  t.strictSame(
    listed.body?.tables?.map((x: { name: string; built: unknown }) => [x.name, x.built]),
    [['pending', null]],
    'listed, not built',
  );
  t.same(errorOf(await preItem(1, 'pending', fresh.token)), TABLE_NOT_FOUND, 'defined, not built: TABLE_NOT_FOUND');
  t.same(errorOf(await preUser(A_LOVER, 'pending', fresh.token)), TABLE_NOT_FOUND, 'defined, not built (user endpoint)');
});

t.test('precomputed tables roles: frontend reads, only root, manager and backend define, list and delete', async (t) => {
  const front = await tokenFor(api, root, 'frontend', db);
  const frontOf3 = await frontendToken(api, root, db, uid(3));
  t.strictSame(
    precomputedOf(t, await preItem(9, 'similar', front), 'frontend item', 5),
    (await preItem(9, 'similar')).body.items_id,
    'frontend reads an item table',
  );
  t.strictSame(
    precomputedOf(t, await preUser(uid(3), 'forusers', frontOf3), 'frontend user', 5),
    (await preUser(uid(3), 'forusers')).body.items_id,
    "frontend reads its own user's row of a user table",
  );
  t.same(errorOf(await preUser(uid(3), 'forusers', front)), NOT_OWN_USER, 'a frontend without frontend_user_id reads no user row');
  t.same(errorOf(await putTable('front', { reco_type: 'item_to_items', amt: 5 }, front)), INCORRECT_ROLE, 'frontend PUT');
  t.same(errorOf(await listTables(front)), INCORRECT_ROLE, 'frontend GET');
  t.same(errorOf(await deleteTable('similar', front)), INCORRECT_ROLE, 'frontend DELETE');
  const viewer = await tokenFor(api, root, 'demo_viewer', db);
  t.same(errorOf(await preItem(9, 'similar', viewer)), INCORRECT_ROLE, 'demo_viewer read');
  for (const role of ['root', 'manager']) {
    const tok = await tokenFor(api, root, role, db);
    const l = await listTables(tok);
    t.equal(l.status, 200, `${role} lists: ${why(l, 200)}`);
    t.strictSame(
      l.body?.tables?.map((x: { name: string }) => x.name),
      ['forusers', 'similar'],
      `${role}: both tables, by name`,
    );
    t.equal((await preItem(9, 'similar', tok)).status, 200, `${role} reads`);
  }
  t.notOk(
    (await listTables()).body?.tables?.some((x: { name: string }) => x.name === 'front'),
    'the refused definition is not stored',
  );
});

t.test('POST tasks/precomputed_tables/ rebuilds the tables', async (t) => {
  const r = await triggerAfterRuns(api, pair.a.redis, db, token, 'precomputed_tables');
  t.equal(r.status, 200, why(r, 200));
  t.type(r.body?.task_id, 'string', 'a task_id');
  await completed(t, r.body.task_id, 'requested rebuild');
  const rows = await tasksOf(api, token, 'precomputed_tables');
  t.match(rows.find((x) => x.task_id === r.body.task_id)?.progress, /2 of 2 tables built/, 'both tables built');
  t.strictSame(
    precomputedOf(t, await preItem(1, 'similar'), 'after the rebuild', 5),
    (await itemReco(1, { amt: 5 })).body.items_id,
    'still the live top 5',
  );
});

t.test('a second process reads a built table; a rebuild (amt 3) reaches both processes', async (t) => {
  const onA = precomputedOf(t, await preItem(11, 'similar'), 'process A', 5);
  const onB = precomputedOf(t, await preItem(11, 'similar', token, apiB), 'process B', 5);
  t.strictSame(onB, onA, 'the same rows on both processes');
  t.strictSame(
    precomputedOf(t, await preItem(12, 'similar', token, apiB), 'process B item 12', 5),
    (await itemReco(12, { amt: 5 })).body.items_id,
    'process B: the live top 5',
  );
  t.strictSame(
    precomputedOf(t, await preUser(uid(33), 'forusers', token, apiB), 'process B user', 5),
    (await preUser(uid(33), 'forusers')).body.items_id,
    'process B: the user table',
  );

  // Both processes hold the table now; redefine it with 3 items per row, through process B.
  const r = await putTable('similar', { reco_type: 'item_to_items', amt: 3 }, token, apiB);
  t.equal(r.status, 200, why(r, 200));
  await completed(t, r.body.task_id, 'rebuild with amt 3');
  const def = (await listTables()).body?.tables?.find((x: { name: string }) => x.name === 'similar');
  t.equal(def?.amt, 3, 'the definition says 3');
  t.ok(def?.built, 'built');
  // Each process drops its copy of the table when the rebuild's announcement reaches it, which may come
  // just after the task is seen completed (on a cluster, the database's change stream is read by a
  // connection of its own): wait for it on both before looking at the rows.
  for (const [name, via] of [
    ['A', api],
    ['B', apiB],
  ] as const) {
    await until(
      `process ${name} reads the rebuilt table`,
      async () => (await preItem(11, 'similar', token, via)).body?.items_id?.length,
      (n) => n === 3,
      10_000,
    );
  }
  for (const item of [11, 12, 30]) {
    const live = (await itemReco(item, { amt: 3 })).body.items_id;
    t.strictSame(
      precomputedOf(t, await preItem(item, 'similar'), `process A item ${item}`, 3),
      live,
      `process A item ${item}: 3 items, the live top 3`,
    );
    t.strictSame(
      precomputedOf(t, await preItem(item, 'similar', token, apiB), `process B item ${item}`, 3),
      live,
      `process B item ${item}: 3 items, the live top 3`,
    );
  }
});

t.test('HTTP pipelining: 10 precomputed reads in one write get 10 complete 200 answers, in order', async (t) => {
  t.equal((await preItem(1, 'similar')).status, 200, 'warm-up read');
  const items = [1, 5, 9, 13, 17, 21, 25, 29, 33, 37];
  const { responses, closedEarly } = await pipelined(
    api,
    token,
    items.map((i) => `recommendation/precomputed/items/${i}/items/?table=similar`),
  );
  t.equal(responses.length, 10, '10 complete responses');
  t.notOk(closedEarly, 'the socket stayed open until all came back');
  t.strictSame(
    responses.map((r) => r.status),
    Array(10).fill(200),
    `all 200: ${JSON.stringify(responses.map((r) => r.body)).slice(0, 800)}`,
  );
  const expected: unknown[] = [];
  for (const i of items) expected.push(withoutId((await preItem(i, 'similar')).body));
  t.strictSame(
    responses.map((r) => withoutId(r.body)),
    expected,
    'the same answers as over plain HTTP, in request order',
  );
});

t.test('DELETE precomputed-tables/<name>/: gone for both processes; deleting again is TABLE_NOT_FOUND', async (t) => {
  // Both processes hold it before it goes.
  t.equal((await preItem(2, 'similar')).status, 200);
  t.equal((await preItem(2, 'similar', token, apiB)).status, 200);
  const d = await deleteTable('similar');
  t.equal(d.status, 204, why(d, 204));
  t.same(errorOf(await preItem(2, 'similar')), TABLE_NOT_FOUND, 'process A (the deleting one): read right after delete');
  // The other process hears of it over pub/sub.
  const onB = await until(
    'process B drops the table',
    () => preItem(2, 'similar', token, apiB),
    (r) => r.status !== 200,
    10_000,
  ).catch(() => undefined);
  t.same(onB && errorOf(onB), TABLE_NOT_FOUND, 'process B: read after delete');
  t.same(errorOf(await deleteTable('similar')), TABLE_NOT_FOUND, 'deleting again');
  t.same(errorOf(await deleteTable('nosuch')), TABLE_NOT_FOUND, 'deleting a table never defined');
  t.strictSame(
    (await listTables()).body?.tables?.map((x: { name: string }) => x.name),
    ['forusers'],
    'the other table stays',
  );
  t.equal((await preUser(uid(3), 'forusers')).status, 200, 'and is still read');
});

// The deleting process must not serve a table it held once DELETE has answered (it may only rely
// on its own pub/sub subscriber hearing the announcement first when it drops it itself). Several
// rounds, since the window is short.
t.test('DELETE then an immediate read on the same process: TABLE_NOT_FOUND every time', async (t) => {
  const stale: number[] = [];
  for (let k = 0; k < 10; k++) {
    const name = `gone-${k}`;
    const put = await putTable(name, { reco_type: 'item_to_items', amt: 2 });
    t.equal(put.status, 200, why(put, 200));
    await completed(t, put.body.task_id, `table ${name}`);
    t.equal((await preItem(1, name)).status, 200, `${name}: read once (held by the process)`);
    t.equal((await deleteTable(name)).status, 204, `${name}: deleted`);
    const r = await preItem(1, name);
    if (r.status === 200) stale.push(k);
    else t.same(errorOf(r), TABLE_NOT_FOUND, `${name}: TABLE_NOT_FOUND`);
  }
  t.strictSame(stale, [], 'no round read the deleted table (rounds listed read it with 200)');
});

t.test('the model served throughout is the one trained at the start', async (t) => {
  const r = await api.get('pretrained-ml/trained-models/', { token });
  t.strictSame(
    r.body?.models?.map((m: { model_id: string }) => m.model_id),
    [modelId],
    'one model, never replaced',
  );
});
