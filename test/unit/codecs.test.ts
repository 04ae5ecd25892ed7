// Codec registry (Content-Type and Accept negotiation) and the JSON codec.
import t from 'tap';
import type { Codec } from '../../src/codecs/codec.js';
import { jsonCodec } from '../../src/codecs/json.js';
import { CodecRegistry } from '../../src/codecs/registry.js';

const fake: Codec = { mediaTypes: ['application/x-fake', 'application/x-fake-alias'], compressible: false, decode: () => 'fake', encode: () => 'fake' };
const reg = new CodecRegistry(jsonCodec, [fake]);

t.test('Content-Type picks the codec, with parameters and aliases; unknown types are refused', async (t) => {
  t.equal(reg.forContentType(''), jsonCodec);
  t.equal(reg.forContentType('application/json; charset=utf-8'), jsonCodec);
  t.equal(reg.forContentType('Application/X-Fake-Alias'), fake);
  t.equal(reg.forContentType('text/plain'), undefined);
});

t.test('Accept picks by q-value, falls back to JSON', async (t) => {
  t.equal(reg.forAccept(''), jsonCodec);
  t.equal(reg.forAccept('*/*'), jsonCodec);
  t.equal(reg.forAccept('application/x-fake'), fake);
  t.equal(reg.forAccept('application/json;q=0.5, application/x-fake'), fake);
  t.equal(reg.forAccept('application/x-fake;q=0.2, application/json;q=0.9'), jsonCodec);
  t.equal(reg.forAccept('application/x-fake;q=0'), jsonCodec);
  t.equal(reg.forAccept('text/html'), jsonCodec);
});

t.test('JSON decode errors are DecodeErrors', async (t) => {
  t.same(jsonCodec.decode(Buffer.from('{"a":[1,2]}')), { a: [1, 2] });
  t.throws(() => jsonCodec.decode(Buffer.from('{')), { name: 'DecodeError' });
  t.throws(() => jsonCodec.decode(Buffer.from([0xc3, 0x28])), { name: 'DecodeError' });
});
