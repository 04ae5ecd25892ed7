// Codec registry (Content-Type and Accept negotiation), the JSON and msgpack codecs, and the nesting
// limit every codec enforces.
import t from 'tap';
import { decode, ExtensionCodec } from '@msgpack/msgpack';
import { DecodeError, MAX_BODY_DEPTH, type Codec } from '../../src/codecs/codec.js';
import { msgpackCodec } from '../../src/codecs/msgpack.js';
import { jsonCodec } from '../../src/codecs/json.js';
import { pickleCodec } from '../../src/codecs/pickle.js';
import { CodecRegistry } from '../../src/codecs/registry.js';

const fake: Codec = {
  mediaTypes: ['application/x-fake', 'application/x-fake-alias'],
  compressible: false,
  decode: () => 'fake',
  encode: () => 'fake',
};
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
  const bytes = msgpackCodec.encode({
    a: Float32Array.from([1.5, -2]),
    b: Uint32Array.from([7, 4294967295]),
    c: new Uint8Array([1, 2]),
  }) as Uint8Array;
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

// A value nested n deep in each codec's bytes, built without recursion: a list in a list ... holding 1.
const nested: Record<string, (n: number) => Uint8Array> = {
  json: (n) => Buffer.from(`${'['.repeat(n - 1)}{"a":1}${']'.repeat(n - 1)}`),
  msgpack: (n) => Uint8Array.from([...new Array<number>(n).fill(0x91), 0x01]),
  // protocol 4: n EMPTY_LISTs, each appended to the one below it, then STOP.
  pickle: (n) => Buffer.from(`\x80\x04${']'.repeat(n)}${'a'.repeat(n - 1)}.`, 'latin1'),
};
const codecs: Record<string, Codec> = { json: jsonCodec, msgpack: msgpackCodec, pickle: pickleCodec };

t.test('every codec takes MAX_BODY_DEPTH levels and refuses one more, however deep, with a DecodeError', async (t) => {
  t.equal(MAX_BODY_DEPTH, 32, 'the documented limit');
  for (const [name, make] of Object.entries(nested)) {
    const codec = codecs[name]!;
    let v = codec.decode(make(MAX_BODY_DEPTH));
    let depth = 0;
    while (typeof v === 'object' && v !== null) {
      depth++;
      v = Array.isArray(v) ? v[0] : (v as { a: unknown }).a;
    }
    t.equal(depth, MAX_BODY_DEPTH, `${name}: ${MAX_BODY_DEPTH} levels decoded`);
    for (const n of [MAX_BODY_DEPTH + 1, 5_000, 100_000]) {
      t.throws(() => codec.decode(make(n)), { name: 'DecodeError', message: /nested (deeper|too deeply)/ }, `${name}: ${n} levels refused`);
    }
  }
});

t.test('JSON nesting counts brackets outside strings only', async (t) => {
  const deepText = `${'['.repeat(100)}\\"{\\\\`;
  const body = { a: [{ b: deepText }], 'k[{': '"]' };
  t.same(jsonCodec.decode(Buffer.from(JSON.stringify(body))), body, 'brackets, escaped quotes and backslashes inside strings');
  t.throws(
    () => jsonCodec.decode(Buffer.from(`["\\\\"${'['.repeat(40)}`)),
    { name: 'DecodeError', message: /nested deeper/ },
    'a string ending in escaped backslashes ends there',
  );
  t.throws(() => jsonCodec.decode(Buffer.from('{"a": "unterminated [[[')), { name: 'DecodeError', message: /malformed JSON/ });
});

t.test('msgpack: extension types are refused at any depth within the limit', async (t) => {
  const ext = Uint8Array.from([0x91, 0x91, 0xd4, 0x30, 0x00]); // [[fixext1 type 0x30]]
  t.throws(() => msgpackCodec.decode(ext), { name: 'DecodeError', message: /extension type 48/ });
  const typed = msgpackCodec.decode(Uint8Array.from([0x81, 0xa1, 0x61, 0x91, 0xd6, 0x16, 7, 0, 0, 0])) as { a: unknown[] };
  t.same(typed, { a: [[7]] }, 'a nested Uint32Array extension becomes a list');
});

t.test('no codec accepts an object key named __proto__, however it is spelled', async (t) => {
  const refused = { name: 'DecodeError', message: /__proto__/ };
  for (const text of [
    '{"__proto__": 1}',
    '{"a": [{"b": {"__proto__": {"x": 1}}}]}',
    '{"\\u005f_proto__": 1}',
    '{"__\\u0070roto__": 1}',
    '{"__PROTO__x": 1, "\\u005F\\u005F\\u0070\\u0072\\u006F\\u0074\\u006F\\u005F\\u005F": 2}',
  ]) {
    t.throws(() => jsonCodec.decode(Buffer.from(text)), refused, text);
  }
  for (const text of ['{"proto": "__proto__", "a": ["__proto__"]}', '{"k": "\\u0070"}', '{"\\u00e9t\\u00e9": 1}']) {
    t.same(jsonCodec.decode(Buffer.from(text)), JSON.parse(text), `${text}: only keys count`);
  }
  t.throws(() => msgpackCodec.decode(Uint8Array.from([0x81, 0xa9, ...Buffer.from('__proto__'), 0x01])), refused, 'msgpack');
  t.throws(() => pickleCodec.decode(Buffer.from('\x80\x04}\x8c\x09__proto__K\x01s.', 'latin1')), refused, 'pickle');
});
