// Pickle decoder: golden vectors made by a real Python (protocols 2-5, numpy included), refusal of every
// global outside the allowlist, and malformed input (truncation, absurd lengths, deep nesting).
// Needs python3 with numpy (CI installs python3-numpy); without it these tests fail.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import t, { type Test } from 'tap';
import { DecodeError } from '../../src/codecs/codec.js';
import { decodePickle, NdArray, plainOf } from '../../src/codecs/pickle/decode.js';

const MARKER = join(tmpdir(), `recd-pickle-pwned-${process.pid}`);

const GOLDENS = `
import base64, builtins, json, os, pickle, subprocess, sys, zlib
import numpy as np
out = {}
def add(name, value, protos=(2, 3, 4, 5)):
    for p in protos:
        out[f'{name}@{p}'] = base64.b64encode(pickle.dumps(value, protocol=p)).decode()
add('none', None)
add('bools', [True, False])
add('ints', [0, 1, 255, 256, 65535, 65536, -1, -129, 2**31 - 1, -2**31, 2**31, 2**53, 2**53 + 1, 2**70, -2**70])
add('floats', [0.0, -1.5, 1e300, 3.141592653589793, float('inf')])
add('str', ['', 'abc', 'h\\u00e9llo', '\\u65e5\\u672c', 'a\\U0001F600b'])
add('bytes', [b'', b'ab\\x00\\xff', bytearray(b'xy')])
add('nested', {'a': [1, (2, 3), {'b': {4, 5}}], 'c': (), 'd': frozenset([6]), 'e': [[[]]]})
shared = ['x', 'y']
add('memo', [shared, shared, {'k': shared}])
add('intkeys', {1: 'a', (2, 3): 'b'})
add('u4', np.array([1, 2, 4294967295], dtype='<u4'))
add('i8', np.array([-2**63, 2**53 + 1, 5, -7], dtype='<i8'))
add('f4', np.array([1.5, -2.25, 0.0], dtype='<f4'))
add('f8', np.array([0.1, 1e300, -3.0], dtype='<f8'))
add('bool', np.array([True, False, True]))
add('U16', np.array(['a', 'h\\u00e9llo\\U0001F600', ''], dtype='<U16'))
add('S8', np.array([b'ab', b'', b'12345678'], dtype='S8'))
add('be', np.array([1.5, -2.0, 1e-300], dtype='>f8'))
add('c2d', np.arange(6, dtype='<i4').reshape(2, 3))
add('f2d', np.asfortranarray(np.arange(6, dtype='<i4').reshape(2, 3)))
add('empty', [np.zeros(0, dtype='<f8'), np.zeros((0, 3), dtype='<u4')])
add('objects', np.array(['a', 1, None, {'k': [2]}], dtype=object))
add('scalars', [np.float32(12.5), np.int64(-7), np.str_('h\\u00e9'), np.bool_(True), np.uint32(7), np.float64(0.25)])
ratings = np.array([(1, 2, 3.5, 1.7e9), (4294967295, 0, -1.25, 0.5)],
                   dtype=[('user_id', '<u4'), ('item_id', '<u4'), ('rating', '<f4'), ('timestamp', '<f8')])
add('ratings', ratings)
add('m2m', np.array([(0, 'red'), (1, 'gr\\u00fcn\\U0001F600'), (1, '')], dtype=[('item_index', '<u4'), ('value_id', '<U16')]))
out['client'] = base64.b64encode(zlib.compress(pickle.dumps({'ratings': ratings}, protocol=4))).decode()
out['many'] = base64.b64encode(pickle.dumps({'items_id': np.arange(1000, dtype='<u4'), 'n': np.uint8(3)}, protocol=4)).decode()
class Evil:
    def __reduce__(self):
        return (os.system, ('touch ${MARKER}',))
out['evil'] = base64.b64encode(pickle.dumps({'x': Evil()}, protocol=4)).decode()
out['os.system'] = base64.b64encode(pickle.dumps(os.system, protocol=4)).decode()
out['eval'] = base64.b64encode(pickle.dumps(builtins.eval, protocol=4)).decode()
out['eval@2'] = base64.b64encode(pickle.dumps(builtins.eval, protocol=2)).decode()
out['popen'] = base64.b64encode(pickle.dumps([subprocess.Popen], protocol=3)).decode()
json.dump(out, sys.stdout)
`;

function goldens(): Record<string, Buffer> {
  const r = spawnSync('python3', ['-c', GOLDENS], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`python3 with numpy is required for these tests (CI installs python3-numpy): ${r.error ?? r.stderr}`);
  const raw = JSON.parse(r.stdout) as Record<string, string>;
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
}

const G = goldens();
const PROTOS = [2, 3, 4, 5];

function golden(name: string): Buffer {
  const g = G[name];
  if (!g) throw new Error(`no golden ${name}`);
  return g;
}

const plain = (name: string) => plainOf(decodePickle(golden(name)));

function refuses(t: Test, bytes: Uint8Array, pattern?: RegExp, msg?: string): void {
  let err: unknown;
  try {
    decodePickle(bytes);
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof DecodeError, `${msg ?? 'refused'}: DecodeError (got ${String(err)})`);
  if (pattern && err instanceof Error) t.match(err.message, pattern, msg ?? 'message');
}

const bytesOf = (parts: (string | number[] | Uint8Array)[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const b = (...parts: (string | number[] | Uint8Array)[]): Uint8Array => bytesOf(parts);

t.test('python3 with numpy produced the goldens', async (t) => {
  t.ok(Object.keys(G).length > 100);
});

t.test('builtin values, every protocol', async (t) => {
  for (const p of PROTOS) {
    t.equal(plain(`none@${p}`), null);
    t.same(plain(`bools@${p}`), [true, false]);
    t.strictSame(plain(`ints@${p}`), [
      0,
      1,
      255,
      256,
      65535,
      65536,
      -1,
      -129,
      2 ** 31 - 1,
      -(2 ** 31),
      2 ** 31,
      2n ** 53n,
      2n ** 53n + 1n,
      2n ** 70n,
      -(2n ** 70n),
    ]);
    t.strictSame(plain(`floats@${p}`), [0, -1.5, 1e300, Math.PI, Infinity]);
    t.strictSame(plain(`str@${p}`), ['', 'abc', 'héllo', '日本', 'a\u{1F600}b']);
    t.strictSame(plain(`bytes@${p}`), [new Uint8Array(0), new Uint8Array([97, 98, 0, 255]), new Uint8Array([120, 121])]);
    t.strictSame(plain(`nested@${p}`), { a: [1, [2, 3], { b: [4, 5] }], c: [], d: [6], e: [[[]]] });
    const memo = decodePickle(golden(`memo@${p}`)) as [unknown[], unknown[], { k: unknown[] }];
    t.strictSame(memo, [['x', 'y'], ['x', 'y'], { k: ['x', 'y'] }]);
    t.equal(memo[0], memo[1], 'memo back-references keep identity');
    t.equal(memo[0], memo[2].k);
    t.strictSame(
      plain(`intkeys@${p}`),
      new Map<unknown, unknown>([
        [1, 'a'],
        [[2, 3], 'b'],
      ]),
    );
  }
});

t.test('numpy 1-D arrays, every protocol', async (t) => {
  for (const p of PROTOS) {
    const u4 = decodePickle(golden(`u4@${p}`)) as NdArray;
    t.ok(u4 instanceof NdArray);
    t.same(u4.dtype, { kind: 'u', itemsize: 4, byteorder: '<', fields: null });
    t.same(u4.shape, [3]);
    t.ok(u4.data instanceof Uint32Array);
    t.strictSame(u4.toPlain(), [1, 2, 4294967295]);
    const i8 = decodePickle(golden(`i8@${p}`)) as NdArray;
    t.ok(i8.data instanceof BigInt64Array);
    t.strictSame(i8.toPlain(), [-(2n ** 63n), 2n ** 53n + 1n, 5, -7]);
    t.strictSame(plain(`f4@${p}`), [1.5, -2.25, 0]);
    t.strictSame(plain(`f8@${p}`), [0.1, 1e300, -3]);
    const bool = decodePickle(golden(`bool@${p}`)) as NdArray;
    t.ok(bool.data instanceof Uint8Array);
    t.strictSame(bool.toPlain(), [true, false, true]);
    t.strictSame(plain(`U16@${p}`), ['a', 'héllo\u{1F600}', '']);
    t.strictSame(plain(`S8@${p}`), [new Uint8Array([97, 98]), new Uint8Array(0), new Uint8Array(Buffer.from('12345678'))]);
    const be = decodePickle(golden(`be@${p}`)) as NdArray;
    t.equal(be.dtype.byteorder, '>');
    t.ok(be.data instanceof Float64Array);
    t.strictSame(be.toPlain(), [1.5, -2, 1e-300]);
    t.strictSame(plain(`empty@${p}`), [[], []]);
    t.strictSame(plain(`objects@${p}`), ['a', 1, null, { k: [2] }]);
    t.strictSame(plain(`scalars@${p}`), [12.5, -7, 'hé', true, 7, 0.25]);
  }
});

t.test('numpy 2-D arrays in C and Fortran order', async (t) => {
  for (const p of PROTOS) {
    const c = decodePickle(golden(`c2d@${p}`)) as NdArray;
    const f = decodePickle(golden(`f2d@${p}`)) as NdArray;
    t.equal(c.order, 'C');
    t.equal(f.order, 'F');
    t.strictSame([...(f.data as Int32Array)], [0, 3, 1, 4, 2, 5], 'Fortran data stays in memory order');
    t.strictSame(c.toPlain(), [
      [0, 1, 2],
      [3, 4, 5],
    ]);
    t.strictSame(f.toPlain(), [
      [0, 1, 2],
      [3, 4, 5],
    ]);
  }
});

t.test('structured arrays decode into columns and rows', async (t) => {
  for (const p of PROTOS) {
    const r = decodePickle(golden(`ratings@${p}`)) as NdArray;
    t.equal(r.dtype.kind, 'V');
    t.equal(r.dtype.itemsize, 20);
    t.same(
      r.dtype.fields?.map((f) => [f.name, f.offset, f.dtype.kind, f.dtype.itemsize]),
      [
        ['user_id', 0, 'u', 4],
        ['item_id', 4, 'u', 4],
        ['rating', 8, 'f', 4],
        ['timestamp', 12, 'f', 8],
      ],
    );
    t.equal(r.data, null);
    t.ok(r.columns?.get('user_id')?.data instanceof Uint32Array);
    t.strictSame([...(r.columns!.get('rating')!.data as Float32Array)], [3.5, -1.25]);
    t.strictSame(r.toPlain(), [
      { user_id: 1, item_id: 2, rating: 3.5, timestamp: 1.7e9 },
      { user_id: 4294967295, item_id: 0, rating: -1.25, timestamp: 0.5 },
    ]);
    t.strictSame(plain(`m2m@${p}`), [
      { item_index: 0, value_id: 'red' },
      { item_index: 1, value_id: 'grün\u{1F600}' },
      { item_index: 1, value_id: '' },
    ]);
  }
});

t.test('a client body: zlib(pickle protocol 4) of {ratings: structured array}', async (t) => {
  const body = golden('client');
  t.equal(body[0], 0x78, 'zlib, not gzip');
  const value = decodePickle(inflateSync(body)) as { ratings: NdArray };
  t.ok(value.ratings instanceof NdArray);
  t.strictSame(plainOf(value), {
    ratings: [
      { user_id: 1, item_id: 2, rating: 3.5, timestamp: 1.7e9 },
      { user_id: 4294967295, item_id: 0, rating: -1.25, timestamp: 0.5 },
    ],
  });
  const many = plainOf(decodePickle(golden('many'))) as { items_id: number[]; n: number };
  t.equal(many.items_id.length, 1000);
  t.equal(many.items_id[999], 999);
  t.equal(many.n, 3);
});

// Copies `bytes` into a fresh buffer at `shift`, so the array data lands at every alignment.
function shifted(bytes: Uint8Array, shift: number): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(bytes.length + 16), shift, bytes.length);
  out.set(bytes);
  return out;
}

t.test('aligned little-endian data is a view over the input; otherwise a copy', async (t) => {
  for (const [name, Ctor, expected] of [
    ['f8@4', Float64Array, [0.1, 1e300, -3]],
    ['u4@3', Uint32Array, [1, 2, 4294967295]],
    ['bool@4', Uint8Array, [1, 0, 1]],
  ] as const) {
    let views = 0;
    for (let shift = 0; shift < 8; shift++) {
      const input = shifted(golden(name), shift);
      const arr = decodePickle(input) as NdArray;
      t.ok(arr.data instanceof Ctor);
      t.strictSame(Array.from(arr.data as ArrayLike<number>), [...expected], `${name} shift ${shift}`);
      if ((arr.data as Uint8Array).buffer === input.buffer) views++;
    }
    const expectViews = Ctor.BYTES_PER_ELEMENT === 8 ? 1 : Ctor.BYTES_PER_ELEMENT === 4 ? 2 : 8;
    t.equal(views, expectViews, `${name}: a view exactly when aligned`);
  }
  const be = decodePickle(golden('be@4')) as NdArray;
  t.not((be.data as Float64Array).buffer, golden('be@4').buffer, 'big-endian data is copied');
});

t.test('globals outside the allowlist are refused by name; nothing runs', async (t) => {
  refuses(t, golden('evil'), /posix\.system/, '__reduce__ to os.system');
  t.notOk(existsSync(MARKER), 'the command did not run');
  refuses(t, golden('os.system'), /posix\.system/, 'os.system');
  refuses(t, golden('eval'), /builtins\.eval/, 'builtins.eval');
  refuses(t, golden('eval@2'), /__builtin__\.eval/, 'builtins.eval, protocol 2');
  refuses(t, golden('popen'), /subprocess\.Popen/, 'subprocess.Popen');
  refuses(t, b("cos\nsystem\n(S'echo hi'\ntR."), /os\.system/, 'protocol 0 GLOBAL + REDUCE');
  refuses(t, b("ios\nsystem\n(S'echo hi'\n."), /os\.system/, 'INST');
  refuses(t, b('\x80\x04\x8c\x08builtins\x8c\x07getattr\x93.'), /builtins\.getattr/, 'STACK_GLOBAL');
  refuses(t, b('\x80\x02ccopy_reg\n_reconstructor\n.'), /copy_reg\._reconstructor/);
  refuses(t, b('\x80\x04\x8c\x05numpy\x8c\x04load\x93.'), /numpy\.load/);
  refuses(t, b('\x80\x04\x82\x01.'), /extension/, 'EXT1');
  refuses(t, b('\x80\x04\x8c\x01x\x94Q.'), /persistent/, 'BINPERSID');
  refuses(t, b('\x80\x05\x97.'), /out-of-band/, 'NEXT_BUFFER');
  refuses(t, b('\x80\x04\x8c\x08builtins\x8c\x04list\x93.'), /cannot be a value/, 'a bare allowed global');
  refuses(t, b('\x80\x04\x8c\x08builtins\x8c\x04list\x93)\x81}b.'), /BUILD/, 'BUILD on a list');
});

t.test('malformed input is a DecodeError', async (t) => {
  const u64 = (n: bigint) => {
    const x = Buffer.alloc(8);
    x.writeBigUInt64LE(n);
    return x;
  };
  refuses(t, new Uint8Array(0), /truncated/, 'empty');
  refuses(t, b('\x80\x04\x8d', u64(2n ** 60n), 'abc.'), undefined, 'BINUNICODE8 of 2**60');
  refuses(t, b('\x80\x04\x8e', u64(2n ** 60n), 'abc.'), undefined, 'BINBYTES8 of 2**60');
  refuses(t, b('\x80\x04\x96', u64(2n ** 40n), 'abc.'), /too long/, 'BYTEARRAY8 of 2**40');
  refuses(t, b('\x80\x04\x96', u64(100n), 'abc.'), /truncated/, 'BYTEARRAY8 longer than the input');
  refuses(t, b('\x80\x04X\xff\xff\xff\xffabc.'), /too long/, 'BINUNICODE of 4 GiB');
  refuses(t, b('\x80\x04T\xff\xff\xff\xffabc.'), /negative/, 'negative BINSTRING');
  refuses(t, b('\x80\x04\x8b\xff\xff\xff\x7fabc.'), /LONG4/, 'LONG4 of 2 GiB');
  refuses(t, b('\x80\x04\x95', u64(2n ** 62n), 'N.'), /too large/, 'FRAME of 2**62');
  refuses(t, b('\x80\x04\x95', u64(2n ** 40n), 'N.'), /frame longer/, 'FRAME longer than the input');
  refuses(t, b('\x80\x04\x95', u64(1n), 'K\x01.'), /frame/, 'opcode crossing a frame');
  refuses(t, b('\x80\x06N.'), /protocol/, 'protocol 6');
  refuses(t, b('\x80\x04\xffN.'), /unknown opcode 0xff/);
  refuses(t, b('\x80\x04a.'), /underflow/, 'APPEND on an empty stack');
  refuses(t, b('\x80\x04l.'), /MARK missing/, 'LIST without MARK');
  refuses(t, b('\x80\x04N.N'), /trailing/, 'bytes after STOP');
  refuses(t, b('\x80\x04NN.'), /unbalanced/, 'two values at STOP');
  refuses(t, b('\x80\x04(N.'), /unbalanced/, 'open MARK at STOP');
  refuses(t, b('\x80\x04N'), /truncated/, 'no STOP');
  refuses(t, b('\x80\x04h\x05.'), /memo/, 'GET of a missing memo entry');
  refuses(t, b('\x80\x04)K\x01a.'), /not a list/, 'APPEND to a tuple');
  refuses(t, b('\x80\x04}]Ns.'), /unhashable/, 'list as a dict key');
  refuses(t, b('\x80\x04\x8c\x02\xc3\x28.'), /UTF-8/, 'invalid UTF-8');
  refuses(t, b('\x80\x02I12x\n.'), /integer/, 'bad INT');
  refuses(t, b('\x80\x02I', '9'.repeat(5000), '\n.'), /too long/, 'INT of 5000 digits');
  refuses(t, b("\x80\x02S'abc\n."), /quoted/, 'unterminated STRING');
  // A numpy array whose shape claims more than its data holds.
  const bad = Buffer.from(golden('u4@4'));
  const at = bad.indexOf(Buffer.from('K\x03\x85', 'latin1'));
  t.ok(at > 0);
  bad[at + 1] = 0x04;
  refuses(t, bad, /data size/, 'shape larger than the data');
});

t.test('legacy text opcodes still decode', async (t) => {
  t.strictSame(
    plainOf(decodePickle(b("(lp0\nI1\naI00\naL12345678901234567890L\naF1.5\naS'a\\x00\\'b'\naVh\\u00e9\\u20ac\na(dp1\nVk\np2\nI01\nsa."))),
    [1, false, 12345678901234567890n, 1.5, "a\x00'b", 'hé€', { k: true }],
  );
});

t.test('truncation at every byte offset is a DecodeError', async (t) => {
  for (const name of ['ratings@4', 'nested@2', 'scalars@5', 'f2d@3', 'memo@4', 'm2m@5']) {
    const bytes = golden(name);
    let refused = 0;
    for (let n = 0; n < bytes.length; n++) {
      try {
        decodePickle(bytes.subarray(0, n));
      } catch (e) {
        if (e instanceof DecodeError) refused++;
        else t.fail(`${name} cut at ${n}: ${String(e)}`);
      }
    }
    t.equal(refused, bytes.length, `${name}: every prefix refused`);
  }
});

t.test('deep nesting and blow-ups are refused with bounded memory', async (t) => {
  const before = process.memoryUsage().heapUsed;
  const N = 100_000;
  refuses(t, b('\x80\x04', '('.repeat(N), 'l'.repeat(N), '.'), /nested too deeply/, 'MARK/LIST nesting');
  refuses(t, b('\x80\x04', ']'.repeat(N), 'a'.repeat(N - 1), '.'), /nested too deeply/, 'EMPTY_LIST+APPEND nesting');
  // Nesting through the memo with a stack that never grows: [], then repeatedly append a new list and descend.
  const parts: (string | number[])[] = ['\x80\x04]\x94'];
  for (let i = 1; i <= N; i++) parts.push(']\x94a0j', [i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, 0]);
  parts.push('0h\x00.');
  refuses(t, bytesOf(parts), /nested too deeply/, 'memo nesting');
  // (x, x) nested 30 times (within the depth limit): 2**30 values once expanded.
  refuses(t, b('\x80\x04]', '2\x86'.repeat(30), '.'), /too large/, 'exponential sharing');
  t.ok(process.memoryUsage().heapUsed - before < 256 << 20, 'memory stayed bounded');
  refuses(t, b('\x80\x04', ']'.repeat(300_000), '.'), /stack too large/, 'a huge stack');
});

t.test('limits can be tightened', async (t) => {
  const nested = golden('nested@4');
  t.throws(() => decodePickle(nested, { maxDepth: 2 }), DecodeError);
  t.throws(() => decodePickle(golden('str@4'), { maxStringBytes: 3 }), DecodeError);
  t.throws(() => decodePickle(golden('u4@4'), { maxArrayBytes: 8 }), DecodeError);
  t.throws(() => decodePickle(golden('memo@4'), { maxMemo: 2 }), DecodeError);
  t.throws(() => decodePickle(golden('ints@4'), { maxStack: 4 }), DecodeError);
  t.throws(() => decodePickle(golden('many'), { maxElements: 999 }), DecodeError);
  t.strictSame(plainOf(decodePickle(nested, { maxDepth: 4 })), plain('nested@4'));
});

// Every supported dtype, compared with what numpy itself says the elements are (`tolist()`): numbers of
// every width in both byte orders, text, bytes, structured records with padding and explicit offsets,
// C and Fortran order, and numpy scalars of each type.
const DTYPES = String.raw`
import base64, json, pickle, sys
import numpy as np
def tag(v):
    if isinstance(v, bool) or v is None or isinstance(v, str): return v
    if isinstance(v, int): return v if abs(v) <= 2**53 else {'big': str(v)}
    if isinstance(v, float): return v
    if isinstance(v, bytes): return {'bytes': list(v)}
    if isinstance(v, (list, tuple)): return [tag(x) for x in v]
    if isinstance(v, dict): return {k: tag(x) for k, x in v.items()}
    raise TypeError(type(v))
def rows(a):
    if a.dtype.names is None: return tag(a.tolist())
    def rec(r): return {n: tag(r[n].item() if hasattr(r[n], 'item') else r[n]) for n in a.dtype.names}
    return [rec(r) for r in a]
cases = {}
def add(name, a, expected=None):
    cases[name] = {'expected': expected if expected is not None else rows(a),
                   'pickles': [base64.b64encode(pickle.dumps(a, protocol=p)).decode() for p in (2, 3, 4, 5)]}
for kind, values in [('i1', [-128, 0, 127]), ('i2', [-32768, 1, 32767]), ('i4', [-2**31, 7, 2**31 - 1]), ('i8', [-2**63, 2**53 + 1, 3]),
                     ('u1', [0, 255]), ('u2', [0, 65535]), ('u4', [0, 2**32 - 1]), ('u8', [0, 2**64 - 1, 5]),
                     ('f2', [0.5, -2.0, 65504.0]), ('f4', [1.5, -0.25, 3.0e38]), ('f8', [0.1, -1e-300, 1e300])]:
    for order in '<>':
        add(order + kind, np.array(values, dtype=order + kind))
add('b1', np.array([True, False]))
add('U5', np.array(['', 'h\u00e9llo', '\U0001F600'], dtype='<U5'))
add('>U3', np.array(['abc', 'd'], dtype='>U3'))
add('S4', np.array([b'ab', b'\x00\xff\x01', b''], dtype='S4'))
aligned = np.dtype([('a', 'u1'), ('b', '<f8'), ('c', '<U3'), ('d', '>i2')], align=True)
add('aligned', np.array([(1, 2.5, 'xy', -3), (255, -0.5, '', 300)], dtype=aligned))
offsets = np.dtype({'names': ['x', 'y', 'z'], 'formats': ['<i2', '>u4', 'S2'], 'offsets': [8, 0, 4], 'itemsize': 12})
add('offsets', np.array([(1, 2, b'ab'), (-1, 2**32 - 1, b'')], dtype=offsets))
inner = np.dtype([('p', '<f4'), ('q', 'u1')])
add('nested', np.array([((1.5, 2), 3)], dtype=[('in', inner), ('n', '<u2')]), [{'in': {'p': 1.5, 'q': 2}, 'n': 3}])
add('F>i4', np.asfortranarray(np.arange(12, dtype='>i4').reshape(3, 4)))
add('C3d', np.arange(24, dtype='<u2').reshape(2, 3, 4))
add('Fstructured', np.asfortranarray(np.array([[(1, 2.0), (3, 4.0)], [(5, 6.0), (7, 8.0)]], dtype=[('a', '<i4'), ('b', '<f8')])),
    [[{'a': 1, 'b': 2.0}, {'a': 3, 'b': 4.0}], [{'a': 5, 'b': 6.0}, {'a': 7, 'b': 8.0}]])
scalars = [np.int8(-5), np.int16(300), np.int32(-70000), np.int64(2**40), np.uint8(200), np.uint16(60000), np.uint32(2**32 - 1),
           np.uint64(2**64 - 1), np.float16(0.5), np.float32(12.5), np.float64(0.1), np.bool_(False), np.str_('x\u00e9'), np.bytes_(b'ab')]
add('scalars', np.array([0]), tag([s.item() for s in scalars]))
cases['scalars']['pickles'] = [base64.b64encode(pickle.dumps(scalars, protocol=p)).decode() for p in (2, 3, 4, 5)]
json.dump(cases, sys.stdout)
`;

function tagged(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : { big: v.toString() };
  if (v instanceof Uint8Array) return { bytes: [...v] };
  if (Array.isArray(v)) return v.map(tagged);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tagged(x)]));
  return v;
}

t.test('every supported dtype decodes to what numpy says it holds', async (t) => {
  const r = spawnSync('python3', ['-c', DTYPES], { encoding: 'utf8', maxBuffer: 1 << 26 });
  t.equal(r.status, 0, `python3 with numpy made the cases: ${r.stderr}`);
  const cases = JSON.parse(r.stdout) as Record<string, { expected: unknown; pickles: string[] }>;
  t.ok(Object.keys(cases).length >= 30);
  for (const [name, c] of Object.entries(cases)) {
    c.pickles.forEach((b64, k) => {
      const value = decodePickle(Buffer.from(b64, 'base64'));
      t.strictSame(tagged(plainOf(value)), c.expected, `${name}, protocol ${k + 2}`);
    });
  }
  const be = decodePickle(Buffer.from(cases['>u4']!.pickles[2]!, 'base64')) as NdArray;
  t.ok(be.data instanceof Uint32Array, 'big-endian data becomes a host-order typed array');
  const aligned = decodePickle(Buffer.from(cases.aligned!.pickles[2]!, 'base64')) as NdArray;
  t.same(
    aligned.dtype.fields?.map((f) => f.offset),
    [0, 8, 16, 28],
    'aligned offsets as numpy laid them out',
  );
  t.equal(aligned.dtype.itemsize, 32);
});
