// MessagePack bodies and answers: the same endpoints and errors as JSON, in application/msgpack.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { decode, Encoder, ExtensionCodec } from '@msgpack/msgpack';
import t from 'tap';
import { freshDatabase, uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { token } = await freshDatabase(api, root);

const encoder = new Encoder({ maxDepth: 1000 });
const encode = (v: unknown) => encoder.encode(v);
const MSGPACK = { 'content-type': 'application/msgpack', accept: 'application/msgpack' };
const send = (method: string, path: string, body?: unknown, headers = MSGPACK) =>
  api.call(method, path, { token, raw: body === undefined ? undefined : Buffer.from(encode(body)), headers });

t.test('a msgpack body is read and the answer is msgpack', async (t) => {
  const put = await send('PUT', 'ratings-bulk/', { ratings: [{ user_id: uid(1), item_id: 7, rating: 8.5, timestamp: 1_700_000_000 }] });
  t.equal(put.status, 200);
  t.match(put.headers['content-type'], /^application\/msgpack/);
  t.same(decode(put.bytes), { warnings: [] });
  const got = await send('GET', `users/${uid(1)}/ratings/`);
  t.equal(got.status, 200);
  const body = decode(got.bytes) as { user_ratings: { item_id: unknown; rating: number; timestamp: number }[] };
  t.same(body.user_ratings, [{ item_id: 7, rating: 8.5, timestamp: 1_700_000_000 }]);
});

t.test('errors come back in msgpack too, with the spec error body', async (t) => {
  const bad = await send('PUT', 'ratings-bulk/', { ratings: [{ user_id: uid(1), item_id: 7, rating: 11 }] });
  t.equal(bad.status, 400);
  const err = decode(bad.bytes) as { error_code: number; error_name: string; error_data: { name: string } };
  t.equal(err.error_code, 40);
  t.equal(err.error_name, 'WrongData');
  t.equal(err.error_data.name, 'WRONG_DATA_TYPE');
});

t.test('malformed msgpack → WRONG_DATA_TYPE, nothing stored', async (t) => {
  const before = await api.get('ratings-bulk/', { token });
  for (const raw of [Buffer.from([0xc1]), Buffer.from([0x92, 0x01]), Buffer.from([0xdd, 0xff, 0xff, 0xff, 0xff])]) {
    const r = await api.call('PUT', 'ratings-bulk/', { token, raw, headers: MSGPACK });
    t.equal(r.status, 400, `bytes ${raw.toString('hex')}`);
    t.equal((decode(r.bytes) as { error_data: { name: string } }).error_data.name, 'WRONG_DATA_TYPE');
  }
  // 300 levels of nesting are refused before any handler sees them.
  let deep: unknown = 1;
  for (let k = 0; k < 300; k++) deep = [deep];
  const r = await send('PUT', 'ratings-bulk/', { ratings: deep });
  t.equal(r.status, 400);
  t.same((await api.get('ratings-bulk/', { token })).body, before.body, 'nothing changed');
});

t.test('JSON in, msgpack out (and the other way round)', async (t) => {
  const r = await api.get(`users/${uid(1)}/ratings/`, { token, headers: { accept: 'application/msgpack' } });
  t.match(r.headers['content-type'], /^application\/msgpack/);
  t.ok(Array.isArray((decode(r.bytes) as { user_ratings: unknown[] }).user_ratings));
  const j = await api.call('GET', `users/${uid(1)}/ratings/`, { token, headers: { accept: 'application/json' } });
  t.match(j.headers['content-type'], /^application\/json/);
});

t.test('typed arrays travel as the typed-array extensions; other extensions are refused', async (t) => {
  const ext = new ExtensionCodec();
  const TYPES: [number, new (...a: any[]) => ArrayBufferView][] = [
    [0x16, Uint32Array],
    [0x17, Float32Array],
    [0x18, Float64Array],
  ];
  for (const [type, Ctor] of TYPES) {
    ext.register({
      type,
      encode: (v) => (v instanceof Ctor ? new Uint8Array((v as Uint32Array).buffer.slice(0)) : null),
      decode: (data) => new Ctor(data.slice().buffer),
    });
  }
  const withExt = new Encoder({ extensionCodec: ext });
  // Per-user ratings sent as three typed columns is not a request shape; a list of item ids is: the
  // items-by-id listing takes `items_id` as a Uint32Array.
  await send('PUT', 'ratings-bulk/', { ratings: [{ user_id: uid(9), item_id: 11, rating: 3, timestamp: 1_700_000_001 }] });
  const raw = Buffer.from(withExt.encode({ users_id: Uint32Array.from([1, 2]) }));
  const bad = await api.call('POST', 'users-bulk/properties/list/', { token, raw, headers: MSGPACK });
  t.equal(bad.status, 400, 'uint32 numbers for uuid users: refused like the same numbers in JSON');
  t.match(decode(bad.bytes), { error_data: { name: 'INCORRECT_USER_ID_TYPE' } }, 'the typed array arrived as a list of numbers');
  const unknownExt = Buffer.from([0x81, 0xa1, 0x78, 0xd4, 0x05, 0x00]); // {x: ext type 5}
  const refused = await api.call('PUT', 'ratings-bulk/', { token, raw: unknownExt, headers: MSGPACK });
  t.equal(refused.status, 400);
  t.match(decode(refused.bytes), { error_data: { name: 'WRONG_DATA_TYPE' } });
  const stamp = Buffer.from(new Encoder().encode({ ratings: [{ user_id: uid(1), item_id: 1, rating: 1, timestamp: new Date(0) }] }));
  const noDate = await api.call('PUT', 'ratings-bulk/', { token, raw: stamp, headers: MSGPACK });
  t.equal(noDate.status, 400, 'msgpack timestamps are refused');
  t.match(decode(noDate.bytes, { extensionCodec: ext }), { message: /timestamps/ });
});

t.test('a typed array in an extension reads as exactly the numbers it holds', async (t) => {
  const ext = new ExtensionCodec();
  const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  ext.register({ type: 0x16, encode: (v) => (v instanceof Uint32Array ? bytesOf(v) : null), decode: () => null });
  const typed = new Encoder({ extensionCodec: ext });
  const u32 = await freshDatabase(api, root, { user_id_type: 'uint32' });
  const ratingsOf = async (user: number) =>
    (decode((await api.call('GET', `users/${user}/ratings/`, { token: u32.token, headers: MSGPACK })).bytes) as { user_ratings: unknown[] })
      .user_ratings;
  for (const user of [3, 4, 5]) {
    const r = await api.call('PUT', `users/${user}/ratings/`, {
      token: u32.token,
      raw: Buffer.from(encode({ ratings: [{ item_id: 1, rating: 7, timestamp: 1_700_000_000 }] })),
      headers: MSGPACK,
    });
    t.equal(r.status, 200, `user ${user} rated`);
  }
  // users_id as one uint32 typed array: users 3 and 4 forgotten, 5 kept.
  const del = await api.call('DELETE', 'interactions-ratings-bulk/', {
    token: u32.token,
    raw: Buffer.from(typed.encode({ users_id: Uint32Array.of(3, 4) })),
    headers: MSGPACK,
  });
  t.equal(del.status, 202, `accepted: ${del.status}`);
  const deadline = Date.now() + 20_000;
  // The background task forgets one user after the other: wait for both.
  while (((await ratingsOf(3)).length > 0 || (await ratingsOf(4)).length > 0) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  t.same(await ratingsOf(3), [], 'user 3 forgotten');
  t.same(await ratingsOf(4), [], 'user 4 forgotten');
  t.equal((await ratingsOf(5)).length, 1, 'user 5 kept');
  const taskOf = async () => (await api.get('tasks/interactions_ratings_deletion/recents/', { token: u32.token })).body.tasks[0];
  let task = await taskOf();
  while (task.status !== 'COMPLETED' && Date.now() < deadline) task = await taskOf();
  t.equal(task.progress, '2/2 users', 'the task saw exactly the two users sent');

  const bad = new ExtensionCodec();
  bad.register({ type: 0x16, encode: (v) => (v instanceof Uint8Array && v.length === 3 ? v : null), decode: () => null });
  bad.register({ type: 0x17, encode: (v) => (v instanceof Float32Array ? bytesOf(v) : null), decode: () => null });
  for (const [what, value, name] of [
    ['a length that is not whole elements', Uint8Array.of(1, 2, 3), 'WRONG_DATA_TYPE'],
    ['NaN (no JSON value)', Float32Array.of(NaN), 'WRONG_DATA_TYPE'],
  ] as const) {
    const res = await api.call('DELETE', 'interactions-ratings-bulk/', {
      token: u32.token,
      raw: Buffer.from(new Encoder({ extensionCodec: bad }).encode({ users_id: value })),
      headers: MSGPACK,
    });
    t.equal(res.status, 400, what);
    t.equal((decode(res.bytes) as { error_data: { name: string } }).error_data.name, name, what);
  }
  t.equal((await ratingsOf(5)).length, 1, 'nothing forgotten by the refused requests');
});
