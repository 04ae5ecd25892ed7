// Databases and task records: creation with identifier types, listing, status, renaming, deletion, recent tasks.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { keys } from '../../src/store/keys.js';
import { TasksStore, type TaskRecord } from '../../src/store/tasks-store.js';
import { createDatabase, errorOf, rootToken, tokenFor, unique } from '../helpers/fixtures.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startStack, type Stack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const tasks = new TasksStore(stack.redis);

const ID_TYPES = ['uint32', 'uint64', 'uuid', 'urlsafe', 'hex24', 'bytes16'];
const BAD_ID_TYPES = ['int', 'hex7', 'hex66', 'bytes0', 'bytes49', ''];

// Root logs in on a database through login/individual/ and gets the login response.
const loginOn = (dbId: string) => api.post('login/individual/', { email: ROOT_EMAIL, password: ROOT_PASSWORD, db_id: dbId });

// Every key of the Redis instance that carries the database's hash tag.
async function keysOf(dbId: string): Promise<string[]> {
  const tag = `{db:${dbId}}`;
  return (await stack.redis.keys('*')).filter((k) => k.startsWith(tag));
}

const task = (over: Partial<TaskRecord>): TaskRecord => ({
  task_id: unique('task'),
  name: 'ml_model_retrain',
  start_time: 1_700_000_000,
  end_time: null,
  status: 'RUNNING',
  progress: '0%',
  error: null,
  ...over,
});

// First, while the organisation holds no other database, so the page arithmetic is exact.
t.test('GET databases/ pages through 5 databases 2 at a time', async (t) => {
  const created: string[] = [];
  for (let i = 0; i < 5; i++) created.push(await createDatabase(api, root));
  const all = await api.get('databases/', { token: root, query: 'amt=500' });
  t.equal(all.status, 200);
  t.equal(all.body.databases.length, 5, 'the organisation holds exactly the 5 databases');
  t.equal(all.body.has_next, false);
  t.equal(all.body.next_page, null);

  const expected = [
    { page: 1, n: 2, has_next: true, next_page: 2 },
    { page: 2, n: 2, has_next: true, next_page: 3 },
    { page: 3, n: 1, has_next: false, next_page: null },
    { page: 4, n: 0, has_next: false, next_page: null },
  ];
  const seen: string[] = [];
  for (const e of expected) {
    const r = await api.get('databases/', { token: root, query: `amt=2&page=${e.page}` });
    t.equal(r.status, 200, `page ${e.page}`);
    t.equal(r.body.databases.length, e.n, `page ${e.page} size`);
    t.equal(r.body.has_next, e.has_next, `page ${e.page} has_next`);
    t.equal(r.body.next_page, e.next_page, `page ${e.page} next_page`);
    for (const d of r.body.databases) {
      t.notOk('status' in d, 'listing records carry no status');
      t.type(d.id, 'string');
      t.type(d.name, 'string');
      t.type(d.description, 'string');
      t.type(d.item_id_type, 'string');
      t.type(d.user_id_type, 'string');
      seen.push(d.id);
    }
  }
  t.equal(new Set(seen).size, seen.length, 'no database on two pages');
  t.same([...seen].sort(), [...created].sort(), 'the pages hold exactly the created databases');
  // The same listing without page is page 1.
  const first = await api.get('databases/', { token: root, query: 'amt=2' });
  t.same(
    first.body.databases.map((d: { id: string }) => d.id),
    seen.slice(0, 2),
  );
  t.equal(first.body.next_page, 2);
});

t.test('every identifier type can be chosen and comes back in databases/current/, the login response and the token', async (t) => {
  for (const type of ID_TYPES) {
    const name = unique(`ids-${type}`);
    const c = await api.post(
      'databases/',
      { name, description: `all ids ${type}`, item_id_type: type, user_id_type: type, session_id_type: type },
      { token: root },
    );
    t.equal(c.status, 200, type);
    t.type(c.body.id, 'string');
    const id: string = c.body.id;

    const login = await loginOn(id);
    t.equal(login.status, 200, type);
    t.same(login.body.database, {
      id,
      name,
      description: `all ids ${type}`,
      item_id_type: type,
      user_id_type: type,
      session_id_type: type,
      status: 'pending',
    });
    const token: string = login.body.token;

    const cur = await api.get('databases/current/', { token });
    t.equal(cur.status, 200, type);
    t.match(cur.body, { id, name, item_id_type: type, user_id_type: type, session_id_type: type, status: 'pending' });

    const jwt = await api.post('login/jwt/', undefined, { token });
    t.match(jwt.body.database, { id, item_id_type: type, user_id_type: type, session_id_type: type });
  }
  // Mixed types stay in their own fields.
  const mixed = await api.post(
    'databases/',
    { name: unique('mixed'), description: '', item_id_type: 'hex24', user_id_type: 'uint64', session_id_type: 'bytes16' },
    { token: root },
  );
  t.equal(mixed.status, 200);
  const login = await loginOn(mixed.body.id);
  t.match(login.body.database, { item_id_type: 'hex24', user_id_type: 'uint64', session_id_type: 'bytes16' });
});

t.test('unknown identifier types are WrongData WRONG_DATA_TYPE naming the field', async (t) => {
  const fields = ['item_id_type', 'user_id_type', 'session_id_type'] as const;
  for (const field of fields) {
    for (const bad of BAD_ID_TYPES) {
      const name = unique('bad-type');
      const body = { name, description: '', item_id_type: 'uint32', user_id_type: 'uuid', session_id_type: 'uuid', [field]: bad };
      const r = await api.post('databases/', body, { token: root });
      const what = `${field}=${JSON.stringify(bad)}`;
      t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_DATA_TYPE' }, what);
      t.equal(r.body.error_data?.field, field, what);
      // A refused creation claims nothing: the name is still free.
      const again = await api.post('databases/', { ...body, [field]: 'uint32' }, { token: root });
      t.equal(again.status, 200, `${what}: name still free`);
    }
  }
});

t.test('session_id_type defaults to uuid', async (t) => {
  const name = unique('default-session');
  const c = await api.post('databases/', { name, description: 'd', item_id_type: 'uint32', user_id_type: 'hex24' }, { token: root });
  t.equal(c.status, 200);
  const login = await loginOn(c.body.id);
  t.equal(login.body.database.session_id_type, 'uuid');
  const cur = await api.get('databases/current/', { token: login.body.token });
  t.equal(cur.body.session_id_type, 'uuid');
  const all = await api.get('databases/', { token: root, query: 'amt=500' });
  const listed = all.body.databases.find((d: { id: string }) => d.id === c.body.id);
  t.ok(listed, 'listed');
  t.equal(listed.session_id_type, 'uuid');
});

t.test('a database name is unique in the organisation, case-insensitively', async (t) => {
  const name = unique('Dup-Name');
  const first = await api.post('databases/', { name, description: '', item_id_type: 'uint32', user_id_type: 'uuid' }, { token: root });
  t.equal(first.status, 200);
  for (const variant of [name, name.toLowerCase(), name.toUpperCase()]) {
    const r = await api.post(
      'databases/',
      { name: variant, description: 'other', item_id_type: 'uuid', user_id_type: 'uuid' },
      { token: root },
    );
    t.same(errorOf(r), { status: 400, code: 42, errorName: 'DuplicatedError', name: 'DUPLICATED_DATABASE' }, variant);
    t.equal(r.body.error_data?.type, 'database', variant);
    t.equal(r.body.error_data?.key, variant, variant);
  }
  const all = await api.get('databases/', { token: root, query: 'amt=500' });
  t.equal(
    all.body.databases.filter((d: { name: string }) => d.name.toLowerCase() === name.toLowerCase()).length,
    1,
    'only the first one exists',
  );
});

t.test('GET databases/current/status/ is pending for a new database', async (t) => {
  const id = await createDatabase(api, root);
  for (const role of ['root', 'manager', 'backend', 'frontend']) {
    const token = await tokenFor(api, root, role, id);
    const r = await api.get('databases/current/status/', { token });
    t.equal(r.status, 200, role);
    t.same(r.body, { status: 'pending' }, role);
  }
});

t.test('a root token without a database gets DATABASE_NOT_FOUND on database endpoints', async (t) => {
  for (const path of ['databases/current/status/', 'databases/current/', 'tasks/ml_model_retrain/recents/']) {
    const r = await api.get(path, { token: root });
    t.same(errorOf(r), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' }, path);
  }
});

t.test('PATCH databases/current/ changes name, description and metadata; renaming frees the old name', async (t) => {
  const oldName = unique('before');
  const c = await api.post(
    'databases/',
    { name: oldName, description: 'old', item_id_type: 'uint32', user_id_type: 'uuid', metadata: { a: 1 } },
    { token: root },
  );
  t.equal(c.status, 200);
  const id: string = c.body.id;
  const token = (await loginOn(id)).body.token;

  const newName = unique('after');
  const p = await api.patch('databases/current/', { name: newName, description: 'new', metadata: { b: [1, 2] } }, { token });
  t.ok(p.status === 200 || p.status === 204, `patch answered ${p.status}`);
  const cur = await api.get('databases/current/', { token });
  t.match(cur.body, {
    id,
    name: newName,
    description: 'new',
    metadata: { b: [1, 2] },
    item_id_type: 'uint32',
    user_id_type: 'uuid',
    status: 'pending',
  });
  t.same(cur.body.metadata, { a: 1, b: [1, 2] }, 'metadata is deep-merged, as the hosted service does');

  // Only description: the rest stays.
  await api.patch('databases/current/', { description: 'newer' }, { token });
  const cur2 = await api.get('databases/current/', { token });
  t.match(cur2.body, { name: newName, description: 'newer' });
  t.same(cur2.body.metadata, { a: 1, b: [1, 2] });

  // The listing shows the new values.
  const all = await api.get('databases/', { token: root, query: 'amt=500' });
  const listed = all.body.databases.find((d: { id: string }) => d.id === id);
  t.match(listed, { name: newName, description: 'newer' });

  // Logging in by name follows the rename.
  const byNew = await api.post('login/individual/', { email: ROOT_EMAIL, password: ROOT_PASSWORD, db_name: newName.toUpperCase() });
  t.equal(byNew.status, 200);
  t.equal(byNew.body.database.id, id);
  const byOld = await api.post('login/individual/', { email: ROOT_EMAIL, password: ROOT_PASSWORD, db_name: oldName });
  t.same(errorOf(byOld), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' });

  // The old name is free again; the new one is taken (any case).
  const reuse = await api.post(
    'databases/',
    { name: oldName, description: '', item_id_type: 'uint32', user_id_type: 'uuid' },
    { token: root },
  );
  t.equal(reuse.status, 200, 'old name reusable');
  const clash = await api.post(
    'databases/',
    { name: newName.toUpperCase(), description: '', item_id_type: 'uint32', user_id_type: 'uuid' },
    { token: root },
  );
  t.same(errorOf(clash), { status: 400, code: 42, errorName: 'DuplicatedError', name: 'DUPLICATED_DATABASE' });

  // Renaming onto another database's name is refused and changes nothing.
  const onto = await api.patch('databases/current/', { name: oldName.toUpperCase() }, { token });
  t.same(errorOf(onto), { status: 400, code: 42, errorName: 'DuplicatedError', name: 'DUPLICATED_DATABASE' });
  t.equal((await api.get('databases/current/', { token })).body.name, newName);

  // A change of case only is allowed and keeps the name claimed.
  const recased = await api.patch('databases/current/', { name: newName.toUpperCase() }, { token });
  t.ok(recased.status === 200 || recased.status === 204);
  t.equal((await api.get('databases/current/', { token })).body.name, newName.toUpperCase());
  const stillTaken = await api.post(
    'databases/',
    { name: newName, description: '', item_id_type: 'uint32', user_id_type: 'uuid' },
    { token: root },
  );
  t.same(errorOf(stillTaken), { status: 400, code: 42, errorName: 'DuplicatedError', name: 'DUPLICATED_DATABASE' });
});

t.test('DELETE databases/current/ removes every key of the database and nothing else', async (t) => {
  const name = unique('doomed');
  const c = await api.post('databases/', { name, description: '', item_id_type: 'uint32', user_id_type: 'uuid' }, { token: root });
  const id: string = c.body.id;
  const token = (await loginOn(id)).body.token;
  const sibling = await createDatabase(api, root);

  // Task records, and more keys under the tag than one UNLINK batch (a session's interactions each:
  // no rating, so no training starts meanwhile). database-delete.test.ts fills every kind of key.
  await tasks.put(id, task({ name: 'ml_model_retrain' }));
  await tasks.put(id, task({ name: 'ml_new_items' }));
  await tasks.put(sibling, task({ name: 'ml_model_retrain' }));
  const sessions = Array.from({ length: 2500 }, (_, k) => ({
    session_id: `5e5510e0-0000-4000-a000-${k.toString(16).padStart(12, '0')}`,
    item_id: 1 + (k % 7),
    interaction_type: 'view',
  }));
  t.equal((await api.post('sessions-interactions-bulk/', { interactions: sessions }, { token })).status, 200);
  t.ok((await keysOf(id)).length > 2500, 'keys written under the tag');
  const siblingKeys = (await keysOf(sibling)).sort();
  t.ok(siblingKeys.length >= 3, 'sibling has keys');

  const d = await api.delete('databases/current/', undefined, { token });
  t.ok(d.status === 200 || d.status === 204, `delete answered ${d.status}`);

  t.same(await keysOf(id), [], 'no key with the hash tag is left');
  t.same((await keysOf(sibling)).sort(), siblingKeys, 'the other database keeps its keys');

  const all = await api.get('databases/', { token: root, query: 'amt=500' });
  t.equal(all.status, 200);
  t.notOk(
    all.body.databases.some((d: { id: string }) => d.id === id),
    'gone from the listing',
  );
  t.ok(
    all.body.databases.some((d: { id: string }) => d.id === sibling),
    'the sibling is still listed',
  );

  // The organisation's indexes forget it too (the listing order and the name claims).
  const org: string = (await api.post('login/jwt/', undefined, { token: root })).body.org_id;
  t.equal(await stack.redis.zscore(keys.orgDatabases(org), id), null, 'not in the listing index');
  t.notOk(Object.values(await stack.redis.hgetall(keys.orgDatabaseNames(org))).includes(id), 'no name points to it');

  t.same(errorOf(await loginOn(id)), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' }, 'login by db_id');
  const byName = await api.post('login/individual/', { email: ROOT_EMAIL, password: ROOT_PASSWORD, db_name: name });
  t.same(errorOf(byName), { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' }, 'login by db_name');

  for (const path of ['databases/current/status/', 'databases/current/', 'tasks/ml_model_retrain/recents/']) {
    t.same(
      errorOf(await api.get(path, { token })),
      { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' },
      path,
    );
  }
  t.same(
    errorOf(await api.delete('databases/current/', undefined, { token })),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' },
    'second delete',
  );
  t.same(
    errorOf(await api.patch('databases/current/', { description: 'zombie' }, { token })),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' },
    'patch after delete',
  );
  t.same(await keysOf(id), [], 'a refused patch recreates nothing');

  // The name is free again.
  const reuse = await api.post('databases/', { name, description: '', item_id_type: 'uint32', user_id_type: 'uuid' }, { token: root });
  t.equal(reuse.status, 200);
  t.not(reuse.body.id, id);
});

t.test('GET tasks/<name>/recents/ lists task records newest first', async (t) => {
  const id = await createDatabase(api, root);
  const token = await tokenFor(api, root, 'backend', id);
  const empty = await api.get('tasks/ml_model_retrain/recents/', { token });
  t.equal(empty.status, 200);
  t.same(empty.body.tasks, []);
  t.same(
    Object.keys(empty.body).filter((k) => k !== 'warnings'),
    ['tasks'],
  );

  const older = task({ task_id: 'older-task', start_time: 1_700_000_000, status: 'COMPLETED', progress: '100%', end_time: 1_700_000_100 });
  const newer = task({ task_id: 'newer-task', start_time: 1_700_000_500.5, status: 'RUNNING', progress: '40%' });
  // Written newest first, so the order must come from start_time, not from insertion.
  await tasks.put(id, newer);
  await tasks.put(id, older);
  await tasks.put(id, task({ task_id: 'other-name', name: 'ml_new_items', start_time: 1_800_000_000 }));

  const r = await api.get('tasks/ml_model_retrain/recents/', { token });
  t.equal(r.status, 200);
  t.equal(r.body.tasks.length, 2);
  const fields = (x: TaskRecord) => ({
    name: x.name,
    task_id: x.task_id,
    start_time: x.start_time,
    status: x.status,
    progress: x.progress,
  });
  t.match(r.body.tasks, [fields(newer), fields(older)]);
  for (const rec of r.body.tasks)
    for (const k of ['name', 'task_id', 'start_time', 'end_time', 'status', 'progress', 'error']) t.ok(k in rec, `task record has ${k}`);

  const one = await api.get('tasks/ml_model_retrain/recents/', { token, query: 'amt=1' });
  t.equal(one.status, 200);
  t.match(one.body.tasks, [fields(newer)]);
  t.equal(one.body.tasks.length, 1);
  const second = await api.get('tasks/ml_model_retrain/recents/', { token, query: 'amt=1&page=2' });
  t.match(second.body.tasks, [fields(older)], 'page 2 holds the next older record');
  t.same((await api.get('tasks/ml_model_retrain/recents/', { token, query: 'amt=1&page=3' })).body.tasks, []);

  const other = await api.get('tasks/ml_new_items/recents/', { token });
  t.same(
    other.body.tasks.map((x: TaskRecord) => x.task_id),
    ['other-name'],
  );

  // Task records of one database are not visible from another.
  const elsewhere = await tokenFor(api, root, 'backend', await createDatabase(api, root));
  t.same((await api.get('tasks/ml_model_retrain/recents/', { token: elsewhere })).body.tasks, []);
});

t.test('an invalid task name is WrongData WRONG_PARAMETER', async (t) => {
  const id = await createDatabase(api, root);
  const token = await tokenFor(api, root, 'backend', id);
  for (const bad of ['Bad-Name!', 'UPPER', 'a'.repeat(65)]) {
    const r = await api.get(`tasks/${encodeURIComponent(bad)}/recents/`, { token });
    t.same(errorOf(r), { status: 400, code: 40, errorName: 'WrongData', name: 'WRONG_PARAMETER' }, bad);
    t.equal(r.body.error_data?.field, 'task_name', bad);
  }
});

t.test('databases belong to one organisation: names are per organisation, ids are not shared', async (t) => {
  // A second server on the same Redis bootstraps a second organisation with its own root.
  const otherEmail = `${unique('other-root')}@test.local`;
  const other: Stack = await startStack({ RECD_ROOT_EMAIL: otherEmail }, stack.redisServer);
  t.teardown(() => other.close());
  const login = await other.api.post('login/root/', { email: otherEmail, password: ROOT_PASSWORD });
  t.equal(login.status, 200);
  const otherRoot: string = login.body.token;
  const mine = await api.post('login/jwt/', undefined, { token: root });
  t.not(login.body.org_id, mine.body.org_id, 'two organisations');

  const name = unique('Shared-Name');
  const a = await api.post('databases/', { name, description: '', item_id_type: 'uint32', user_id_type: 'uuid' }, { token: root });
  t.equal(a.status, 200);
  const b = await other.api.post(
    'databases/',
    { name: name.toLowerCase(), description: '', item_id_type: 'uuid', user_id_type: 'uuid' },
    { token: otherRoot },
  );
  t.equal(b.status, 200, 'the same name in another organisation is allowed');
  t.not(b.body.id, a.body.id);

  const listed = await other.api.get('databases/', { token: otherRoot, query: 'amt=500' });
  t.same(
    listed.body.databases.map((d: { id: string }) => d.id),
    [b.body.id],
    'the other organisation lists only its own database',
  );
  const cross = await other.api.post('login/individual/', { email: otherEmail, password: ROOT_PASSWORD, db_id: a.body.id });
  t.same(
    errorOf(cross),
    { status: 404, code: 60, errorName: 'NotFoundError', name: 'DATABASE_NOT_FOUND' },
    'no login into another organisation',
  );

  // Deleting one organisation's database leaves the other's namesake alone.
  const tokenA = (await loginOn(a.body.id)).body.token;
  const d = await api.delete('databases/current/', undefined, { token: tokenA });
  t.ok(d.status === 200 || d.status === 204);
  const again = await other.api.post('login/individual/', { email: otherEmail, password: ROOT_PASSWORD, db_name: name });
  t.equal(again.status, 200);
  t.equal(again.body.database?.id, b.body.id);
});

// Beyond the spec: what the hosted service's Python client calls (docs/api-choices.md "Metadata merges").
t.test('PATCH databases/current/ deep-merges metadata (RFC 7396, preserve appends); preview/ answers it and stores nothing', async (t) => {
  const c = await api.post(
    'databases/',
    {
      name: unique('merge'),
      description: 'd0',
      item_id_type: 'uint32',
      user_id_type: 'uuid',
      metadata: { keep: 1, drop: 2, nest: { x: 1, y: 2 }, list: [1] },
    },
    { token: root },
  );
  const token = (await loginOn(c.body.id)).body.token;
  const current = async () => {
    const r = await api.get('databases/current/', { token });
    return { description: r.body.description, metadata: r.body.metadata };
  };
  const start = await current();

  const patch = { description: 'd1', metadata: { drop: null, nest: { y: null, z: 3 }, list: [2], added: 'a' } };
  const preview = await api.patch('databases/current/preview/', patch, { token });
  t.equal(preview.status, 200, preview.text);
  const merged = { keep: 1, nest: { x: 1, z: 3 }, list: [2], added: 'a' };
  t.same(
    preview.body,
    { metadata_old: start, metadata_new: { description: 'd1', metadata: merged } },
    'null deletes, objects merge, arrays replace',
  );
  t.same(await current(), start, 'the preview stored nothing');
  const appended = await api.patch('databases/current/preview/', { metadata: { list: [2] }, preserve: true }, { token });
  t.same(appended.body.metadata_new, { description: 'd0', metadata: { ...start.metadata, list: [1, 2] } }, 'preserve appends');

  t.equal((await api.patch('databases/current/', patch, { token })).status, 204);
  t.same(await current(), { description: 'd1', metadata: merged }, 'the PATCH stored what the preview answered');
  await api.patch('databases/current/', { metadata: { list: [3], nest: { x: [9] } }, preserve: true }, { token });
  t.same((await current()).metadata, { ...merged, list: [2, 3], nest: { x: [9], z: 3 } }, 'preserve: lists appended, the rest merged');

  const backend = await tokenFor(api, root, 'backend', c.body.id);
  t.equal(
    errorOf(await api.patch('databases/current/preview/', patch, { token: backend })).name,
    'INCORRECT_ROLE',
    'root and manager only, as PATCH',
  );
  t.equal(
    errorOf(await api.patch('databases/current/preview/', { metadata: [1] }, { token })).errorName,
    'WrongData',
    'metadata is an object',
  );
});

t.test('organizations/current/: GET the metadata, PATCH deep-merges it, preview/ answers the merge and stores nothing', async (t) => {
  const get = async (token = root) => api.get('organizations/current/', { token });
  const first = await get();
  t.equal(first.status, 200, first.text);
  t.same(first.body.metadata, {}, 'none yet');

  const set = await api.patch(
    'organizations/current/',
    { metadata: { description: 'shop', extra: { tags: ['a'], plan: 'free' } } },
    { token: root },
  );
  t.equal(set.status, 200, set.text);
  t.same(set.body.metadata, { description: 'shop', extra: { tags: ['a'], plan: 'free' } });
  const preview = await api.patch(
    'organizations/current/preview/',
    { metadata: { extra: { tags: ['b'], plan: null } }, preserve: true },
    { token: root },
  );
  t.equal(preview.status, 200, preview.text);
  t.same(preview.body, {
    metadata_old: { description: 'shop', extra: { tags: ['a'], plan: 'free' } },
    metadata_new: { description: 'shop', extra: { tags: ['a', 'b'] } },
  });
  t.same((await get()).body.metadata, { description: 'shop', extra: { tags: ['a'], plan: 'free' } }, 'the preview stored nothing');
  await api.patch('organizations/current/', { metadata: { extra: { tags: ['c'] } } }, { token: root });
  t.same(
    (await get()).body.metadata,
    { description: 'shop', extra: { tags: ['c'], plan: 'free' } },
    'without preserve the list is replaced',
  );

  // Roles as organizations/current/accounts/: root and manager (here with tokens logged in on a database).
  const db = await createDatabase(api, root);
  const manager = await tokenFor(api, root, 'manager', db);
  t.same((await get(manager)).body.metadata, { description: 'shop', extra: { tags: ['c'], plan: 'free' } }, 'a manager reads it');
  const backend = await tokenFor(api, root, 'backend', db);
  t.equal(errorOf(await get(backend)).name, 'INCORRECT_ROLE', 'a backend may not read it');
  t.equal(
    errorOf(await api.patch('organizations/current/', { metadata: { x: 1 } }, { token: backend })).name,
    'INCORRECT_ROLE',
    'nor change it',
  );
  t.equal(
    errorOf(await api.patch('organizations/current/', { metadata: 'x' }, { token: root })).errorName,
    'WrongData',
    'metadata is an object',
  );
  t.equal(errorOf(await api.patch('organizations/current/', {}, { token: root })).errorName, 'WrongData', 'metadata is required');
});
