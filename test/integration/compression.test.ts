// Response compression: JSON (and msgpack) answers of 16 KiB or more are gzipped for clients that accept
// gzip, with Vary: Accept-Encoding; pickle answers never are; small answers are left alone.
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { freshDatabase } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const api = stack.api;
const root = await rootToken(api);
const { token } = await freshDatabase(api, root, { item_id_type: 'uint32' });
const setup = (status: number, what: string) => {
  if (status >= 300) throw new Error(`${what}: ${status}`);
};
setup((await api.post('items-properties/', { property_name: 'title', value_type: 'unicode200' }, { token })).status, 'property');
const items = Array.from({ length: 300 }, (_, i) => ({ item_id: i + 1, title: `a long enough title for item number ${i + 1} `.repeat(3) }));
setup((await api.put('items-bulk/properties/', { items }, { token })).status, 'items');

const listing = (headers: Record<string, string>) => api.get('items-bulk/properties/', { token, query: 'amt=300', headers });

t.test('a large JSON answer is gzipped when the client accepts gzip', async (t) => {
  const plain = await listing({});
  t.equal(plain.status, 200);
  t.ok(plain.bytes.length >= 16 * 1024, `the listing is large (${plain.bytes.length} bytes)`);
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: not compressed');
  t.equal(plain.headers.vary, 'accept-encoding');
  const zipped = await listing({ 'accept-encoding': 'gzip, deflate' });
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.equal(zipped.headers.vary, 'accept-encoding');
  t.ok(zipped.bytes.length < plain.bytes.length / 3, `smaller: ${zipped.bytes.length} bytes`);
  t.same(JSON.parse(gunzipSync(zipped.bytes).toString()), plain.body, 'the same answer once decompressed');
  const refused = await listing({ 'accept-encoding': 'gzip;q=0, identity' });
  t.equal(refused.headers['content-encoding'], undefined, 'gzip;q=0 is a refusal');
});

t.test('msgpack answers are compressed the same way; pickle answers never', async (t) => {
  const msgpack = await listing({ accept: 'application/msgpack', 'accept-encoding': 'gzip' });
  t.equal(msgpack.headers['content-type'], 'application/msgpack');
  t.equal(msgpack.headers['content-encoding'], 'gzip');
  const pickle = await listing({ accept: 'application/xminds-pkl', 'accept-encoding': 'gzip, deflate' });
  t.equal(pickle.headers['content-type'], 'application/service-pkl');
  t.equal(pickle.headers['content-encoding'], undefined, 'pickle is not compressed');
  t.same([...pickle.bytes.subarray(0, 2)], [0x80, 0x04], 'a protocol 4 pickle');
});

t.test('small answers are sent as they are, without Vary', async (t) => {
  const small = await api.get('items/1/properties/', { token, headers: { 'accept-encoding': 'gzip' } });
  t.equal(small.status, 200);
  t.equal(small.headers['content-encoding'], undefined);
  t.equal(small.headers.vary, undefined);
});
