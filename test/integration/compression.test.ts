// Large JSON and msgpack answers are gzip-compressed for clients that accept it; small ones,
// pickle answers and clients that refuse gzip get them as they are.
import { gunzipSync } from 'node:zlib';
import { decode } from '@msgpack/msgpack';
import t from 'tap';
import { freshDatabase, range } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const s = await startStack();
t.teardown(() => s.close());
const api = s.api;
const root = await rootToken(api);
const { token } = await freshDatabase(api, root);
const created = await api.post('items-properties/', { property_name: 'title', value_type: 'unicode64' }, { token });
const items = range(1, 601).map((i) => ({ item_id: i, title: `an item title long enough to weigh something, number ${i}` }));
const put = await api.put('items-bulk/properties/', { items }, { token });

const listing = (headers: Record<string, string>) => api.get('items-bulk/properties/', { token, query: 'amt=500', headers });

t.test('set-up', async (t) => {
  t.equal(created.status, 204);
  t.equal(put.status, 200);
});

t.test('a large JSON answer is gzip-compressed when the client accepts gzip', async (t) => {
  const plain = await listing({});
  t.equal(plain.status, 200);
  t.ok(plain.bytes.length >= 16 * 1024, `the page weighs ${plain.bytes.length} bytes`);
  t.equal(plain.headers['content-encoding'], undefined, 'not compressed without Accept-Encoding');
  t.equal(plain.headers.vary, 'Accept-Encoding', 'Vary says the answer depends on Accept-Encoding');
  for (const accept of ['gzip', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.5', '*', 'x-gzip']) {
    const r = await listing({ 'accept-encoding': accept });
    t.equal(r.headers['content-encoding'], 'gzip', `Accept-Encoding: ${accept}`);
    t.equal(r.headers.vary, 'Accept-Encoding');
    t.ok(r.bytes.length < plain.bytes.length / 3, `compressed ${plain.bytes.length} → ${r.bytes.length} bytes`);
    t.same(JSON.parse(gunzipSync(r.bytes).toString()), plain.body, 'decompresses to the same answer');
  }
});

t.test('gzip refused by q=0 or absent from the header: no compression', async (t) => {
  // An explicit gzip;q=0 wins over a wildcard.
  for (const accept of ['gzip;q=0', 'deflate', 'identity', '*;q=0', 'gzip;q=0, *']) {
    const r = await listing({ 'accept-encoding': accept });
    t.equal(r.headers['content-encoding'], undefined, `Accept-Encoding: ${accept}`);
    t.equal(r.body.items.length, 500);
  }
});

t.test('msgpack answers are compressed too, pickle answers never', async (t) => {
  const mp = await listing({ 'accept-encoding': 'gzip', accept: 'application/msgpack' });
  t.equal(mp.headers['content-encoding'], 'gzip');
  t.equal((decode(gunzipSync(mp.bytes)) as { items: unknown[] }).items.length, 500);
  const pk = await listing({ 'accept-encoding': 'gzip', accept: 'application/service-pkl' });
  t.equal(pk.status, 200);
  t.equal(pk.headers['content-encoding'], undefined, 'a pickle answer is never compressed');
  t.equal(pk.headers.vary, undefined);
  t.equal(pk.bytes[0], 0x80, 'a pickle stream as it is (PROTO opcode first)');
});

t.test('small answers and errors go as they are', async (t) => {
  const small = await api.get('items/1/properties/', { token, headers: { 'accept-encoding': 'gzip' } });
  t.equal(small.status, 200);
  t.equal(small.headers['content-encoding'], undefined);
  const missing = await api.get('items/999999/properties/', { token, headers: { 'accept-encoding': 'gzip' } });
  t.equal(missing.status, 404);
  t.equal(missing.headers['content-encoding'], undefined);
  t.equal(missing.body.error_name, 'NotFoundError');
});
