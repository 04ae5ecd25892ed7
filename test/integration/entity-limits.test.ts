// Caps on what one item or user stores (issue 41): at most LIMITS.repeatedValuesMax values of a
// repeated property and LIMITS.recordBytesMax bytes of stored record, whatever the route (PUT/PATCH,
// single and bulk), the codec (JSON, msgpack, pickle) or the m2m rows appended; a refused request
// stores nothing.
import { Encoder } from '@msgpack/msgpack';
import t from 'tap';
import { encodePickle, NumpyRecords } from '../../src/codecs/pickle/encode.js';
import { LIMITS } from '../../src/config/limits.js';
import type { Res } from '../helpers/api.js';
import { uid, why } from '../helpers/feedback.js';
import { createDatabase, rootToken, tokenFor } from '../helpers/fixtures.js';
import type { Tt } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const MAX = LIMITS.repeatedValuesMax;
const BYTES = LIMITS.recordBytesMax;

interface Kind {
  kind: 'item' | 'user';
  plural: 'items' | 'users';
  idField: 'item_id' | 'user_id';
  index: 'item_index' | 'user_index';
  id: (n: number) => string | number;
}
const KINDS: Kind[] = [
  { kind: 'item', plural: 'items', idField: 'item_id', index: 'item_index', id: (n) => n },
  { kind: 'user', plural: 'users', idField: 'user_id', index: 'user_index', id: uid },
];

const tags = (n: number, from = 0) => Array.from({ length: n }, (_, k) => `t${from + k}`);
const long = (n: number, from = 0) => Array.from({ length: n }, (_, k) => `${from + k}`.padEnd(999, 'x')); // ~1 KB each

async function fresh(k: Kind): Promise<string> {
  const db = await createDatabase(api, root, { item_id_type: 'uint32', user_id_type: 'uuid' });
  const token = await tokenFor(api, root, 'backend', db);
  for (const p of [
    { property_name: 'tags', value_type: 'unicode16', repeated: true },
    { property_name: 'notes', value_type: 'unicode999', repeated: true },
    { property_name: 'more', value_type: 'unicode999', repeated: true },
  ]) {
    const r = await api.post(`${k.plural}-properties/`, p, { token });
    if (r.status !== 204) throw new Error(`property: ${r.status} ${r.text}`);
  }
  return token;
}

// A 400 WrongData WRONG_DATA_TYPE naming the property and the limit.
function refused(t: Tt, r: Res, property: string, limit: number, what: string): void {
  t.equal(r.status, 400, `${what}: ${why(r, 400)}`);
  t.equal(r.body?.error_name, 'WrongData', `${what}: WrongData`);
  t.equal(r.body?.error_data?.name, 'WRONG_DATA_TYPE', `${what}: WRONG_DATA_TYPE`);
  t.equal(r.body?.error_data?.property, property, `${what}: names ${property}`);
  t.equal(r.body?.error_data?.limit, limit, `${what}: names the limit`);
  t.match(r.body?.message, String(limit), `${what}: the message says the limit`);
}

async function stored(k: Kind, token: string, ids: (string | number)[]): Promise<Record<string, unknown>[]> {
  const r = await api.post(`${k.plural}-bulk/properties/list/`, { [`${k.plural}_id`]: ids }, { token });
  if (r.status !== 200) throw new Error(`list: ${r.status} ${r.text}`);
  return r.body[k.plural];
}

for (const k of KINDS) {
  t.test(`${k.kind}s: a repeated property holds at most ${MAX} values, single and bulk, PUT and PATCH`, async (t) => {
    const token = await fresh(k);
    const one = (n: number) => `${k.plural}/${k.id(n)}/properties/`;
    const bulk = `${k.plural}-bulk/properties/`;
    refused(t, await api.put(one(1), { [k.kind]: { tags: tags(MAX + 1) } }, { token }), 'tags', MAX, 'PUT single');
    refused(
      t,
      await api.patch(one(1), { [k.kind]: { tags: tags(MAX + 1) }, create_if_missing: true }, { token }),
      'tags',
      MAX,
      'PATCH single',
    );
    const records = [
      { [k.idField]: k.id(2), tags: ['a'] },
      { [k.idField]: k.id(3), tags: tags(MAX + 1) },
    ];
    refused(t, await api.put(bulk, { [k.plural]: records }, { token }), 'tags', MAX, 'PUT bulk');
    refused(t, await api.patch(bulk, { [k.plural]: records, create_if_missing: true }, { token }), 'tags', MAX, 'PATCH bulk');
    refused(t, await api.put(bulk, { [k.plural]: records, wait_for_completion: false }, { token }), 'tags', MAX, 'PUT bulk, not waiting');
    t.same(await stored(k, token, [k.id(1), k.id(2), k.id(3)]), [], 'nothing stored');

    const atMax = await api.put(one(1), { [k.kind]: { tags: tags(MAX) } }, { token });
    t.equal(atMax.status, 200, `${MAX} values are taken: ${why(atMax, 200)}`);
    t.equal(((await stored(k, token, [k.id(1)]))[0]!.tags as string[]).length, MAX);

    const msgpack = Buffer.from(new Encoder().encode({ [k.plural]: records }));
    const m = await api.call('PUT', bulk, { token, raw: msgpack, headers: { 'content-type': 'application/msgpack' } });
    refused(t, m, 'tags', MAX, 'msgpack bulk');
  });

  t.test(`${k.kind}s: ${k.plural}_m2m rows count with the record's own list; a refused request stores nothing`, async (t) => {
    const token = await fresh(k);
    const bulk = `${k.plural}-bulk/properties/`;
    const rows = (at: number, n: number) => tags(n, 5000).map((value_id) => ({ [k.index]: at, value_id }));
    const records = [
      { [k.idField]: k.id(1), tags: ['a'] },
      { [k.idField]: k.id(2), tags: tags(600) },
    ];
    for (const method of ['put', 'patch'] as const) {
      const r = await api[method](
        bulk,
        { [k.plural]: records, [`${k.plural}_m2m`]: [{ name: 'tags', array: rows(1, MAX - 600 + 1) }], create_if_missing: true },
        { token },
      );
      refused(t, r, 'tags', MAX, `${method}: 600 own values and ${MAX - 600 + 1} m2m rows`);
    }
    t.same(await stored(k, token, [k.id(1), k.id(2)]), [], 'nothing stored, not even the record within the cap');

    // The binary form: the records and the m2m rows as numpy structured arrays in a pickle.
    const ids = k.kind === 'item' ? Uint32Array.from([1, 2]) : [uid(1), uid(2)];
    const pickle = encodePickle({
      [k.plural]: new NumpyRecords({ [k.idField]: ids }),
      [`${k.plural}_m2m`]: [{ name: 'tags', array: new NumpyRecords({ [k.index]: new Uint32Array(MAX + 1), value_id: tags(MAX + 1) }) }],
    });
    const p = await api.call('PUT', bulk, {
      token,
      raw: Buffer.from(pickle),
      headers: { 'content-type': 'application/service-pkl', accept: 'application/json' },
    });
    refused(t, p, 'tags', MAX, `pickle: ${MAX + 1} m2m rows for one record`);
    t.same(await stored(k, token, [k.id(1), k.id(2)]), [], 'nothing stored');

    const ok = await api.put(bulk, { [k.plural]: records, [`${k.plural}_m2m`]: [{ name: 'tags', array: rows(1, MAX - 600) }] }, { token });
    t.equal(ok.status, 200, `exactly ${MAX}: ${why(ok, 200)}`);
  });

  t.test(`${k.kind}s: one ${k.kind}'s stored properties take at most ${BYTES} bytes, merges included`, async (t) => {
    const token = await fresh(k);
    const one = `${k.plural}/${k.id(1)}/properties/`;
    const bulk = `${k.plural}-bulk/properties/`;
    const big = { tags: ['a'], notes: long(40), more: long(30) }; // ~70 KB
    refused(t, await api.put(one, { [k.kind]: big }, { token }), 'notes', BYTES, 'PUT single');
    refused(t, await api.put(bulk, { [k.plural]: [{ [k.idField]: k.id(1), ...big }] }, { token }), 'notes', BYTES, 'PUT bulk');
    t.same(await stored(k, token, [k.id(1)]), [], 'nothing stored');

    // Each part within the cap, the merge past it: refused, the stored record unchanged.
    t.equal((await api.put(one, { [k.kind]: { notes: long(40) } }, { token })).status, 200, '40 KB stored');
    refused(t, await api.patch(one, { [k.kind]: { more: long(30) } }, { token }), 'notes', BYTES, 'PATCH single merged past the cap');
    const records = [
      { [k.idField]: k.id(2), tags: ['b'] },
      { [k.idField]: k.id(1), more: long(30) },
    ];
    refused(
      t,
      await api.patch(bulk, { [k.plural]: records, create_if_missing: true }, { token }),
      'notes',
      BYTES,
      'PATCH bulk merged past the cap',
    );
    const back = await stored(k, token, [k.id(1), k.id(2)]);
    t.equal(back.length, 1, 'the other record of the bulk PATCH is not stored');
    t.same(Object.keys(back[0]!).sort(), [k.idField, 'notes'].sort(), 'the stored record is unchanged');
    // Removing values makes room.
    const swap = await api.patch(one, { [k.kind]: { notes: null, more: long(30) } }, { token });
    t.equal(swap.status, 200, `a merge that removes as much as it adds: ${why(swap, 200)}`);
  });
}
