// Accept-Encoding parsing and the compression decision (size, codec, status).
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { jsonCodec } from '../../src/codecs/json.js';
import { pickleCodec } from '../../src/codecs/pickle.js';
import { acceptsGzip, compressed, COMPRESS_MIN_BYTES, type Compressible } from '../../src/http/compress.js';

t.test('acceptsGzip', async (t) => {
  for (const h of ['gzip', 'GZIP', 'x-gzip', 'deflate, gzip', 'gzip;q=0.1', '*', 'br;q=1, *;q=0.2', ' gzip ; q=1 '])
    t.ok(acceptsGzip(h), h);
  for (const h of ['', 'deflate', 'identity', 'gzip;q=0', 'gzip;q=0.0', '*;q=0', 'gzip;q=0, *', 'gzip;q=abc', 'gzipx'])
    t.notOk(acceptsGzip(h), h);
});

t.test('compressed: only large answers of compressible codecs', async (t) => {
  const big = JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ item_id: i })) });
  t.ok(big.length >= COMPRESS_MIN_BYTES);
  const input: Compressible = { status: 200, headers: undefined, body: big };
  const out = await compressed(input, jsonCodec, 'gzip');
  t.equal(out.headers?.['content-encoding'], 'gzip');
  t.equal(gunzipSync(out.body as Uint8Array).toString(), big);
  const small = { status: 200, headers: undefined, body: '{"a":1}' };
  t.equal(compressed(small, jsonCodec, 'gzip'), small, 'small: the same object, synchronously');
  const pk = { status: 200, headers: undefined, body: Buffer.alloc(COMPRESS_MIN_BYTES * 2) };
  t.equal(compressed(pk, pickleCodec, 'gzip'), pk, 'pickle: never');
  const none = { status: 204, headers: undefined, body: '' };
  t.equal(compressed(none, jsonCodec, 'gzip'), none, '204: nothing to compress');
  const refused = await compressed({ status: 200, headers: { allow: 'GET' }, body: big }, jsonCodec, 'identity');
  t.same(refused.headers, { allow: 'GET', vary: 'Accept-Encoding' }, 'not accepted: Vary added, other headers kept');
  t.equal(refused.body, big);
});
