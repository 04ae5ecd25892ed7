// Codec registry (Content-Type and Accept negotiation) and the JSON codec.
import t from 'tap';
import { decode, ExtensionCodec } from '@msgpack/msgpack';
import { DecodeError, type Codec } from '../../src/codecs/codec.js';
import { msgpackCodec } from '../../src/codecs/msgpack.js';
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

t.test('msgpack: typed arrays in answers are the typed-array extensions, and come back as lists', async (t) => {
  const bytes = msgpackCodec.encode({ a: Float32Array.from([1.5, -2]), b: Uint32Array.from([7, 4294967295]), c: new Uint8Array([1, 2]) }) as Uint8Array;
  const seen: number[] = [];
  const ext = new ExtensionCodec();
  for (const type of [0x16, 0x17]) ext.register({ type, encode: () => null, decode: (d) => (seen.push(type), [...d]) });
  const raw = decode(bytes, { extensionCodec: ext }) as Record<string, unknown>;
  t.same(seen.sort(), [0x16, 0x17]);
  t.same(raw.a, [0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0], 'little-endian float32 payload');
  t.ok(raw.c instanceof Uint8Array, 'bytes stay bin');
  t.same(msgpackCodec.decode(bytes), { a: [1.5, -2], b: [7, 4294967295], c: new Uint8Array([1, 2]) });
  t.throws(() => msgpackCodec.decode(Uint8Array.from([0xd5, 0x16, 1, 2, 3].slice(0, 4))), DecodeError, 'truncated');
  t.throws(() => msgpackCodec.decode(Uint8Array.from([0xd5, 0x16, 1, 2])), /multiple of 4/, 'a payload that is not whole elements');
});
