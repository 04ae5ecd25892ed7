// The pickle encoder, checked against a real Python: every pickle is loaded by CPython's C unpickler
// and by the pure-Python one (which also validates framing), warnings are errors (so numpy must load
// our arrays without a DeprecationWarning), and the result must equal — strictly, types included —
// what `pickle.loads(pickle.dumps(<python literal>, protocol=4))` gives. Memo-free cases must also be
// byte-identical to `pickletools.optimize(pickle.dumps(..., protocol=4))`.
// Needs python3 with numpy (CI installs python3-numpy); without it these tests fail.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { encodePickle, NumpyArray, NumpyRecords } from '../../src/codecs/pickle/encode.js';

const HARNESS = `
import base64, io, json, math, pickle, pickletools, sys, warnings
import numpy as np
warnings.simplefilter('error')

def same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (a != a and b != b) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(same(x, y) and same(a[x], b[y]) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return (a.dtype == b.dtype and a.dtype.str == b.dtype.str and a.dtype.descr == b.dtype.descr
                and a.dtype.flags == b.dtype.flags and a.shape == b.shape and a.tobytes() == b.tobytes())
    return a == b

def describe(v):
    d = {'type': type(v).__module__ + '.' + type(v).__name__, 'repr': repr(v)[:300]}
    if isinstance(v, np.ndarray):
        d.update(dtype=v.dtype.str, descr=[list(f) for f in v.dtype.descr], shape=list(v.shape),
                 writeable=bool(v.flags.writeable))
    return d

out = []
for case in json.load(sys.stdin):
    r = {}
    try:
        data = base64.b64decode(case['pickle'])
        f = io.BytesIO(data)
        got = pickle.load(f)
        r['consumed'] = f.tell() == len(data)
        r['strict'] = same(got, pickle._Unpickler(io.BytesIO(data)).load())
        pickletools.dis(data, out=io.StringIO())
        r['frames'] = [arg for op, arg, pos in pickletools.genops(data) if op.name == 'FRAME']
        r.update(describe(got))
        if case.get('py') is not None:
            want = pickle.loads(pickle.dumps(eval(case['py'], {'np': np}), protocol=4))
            r['equal'] = same(got, want)
            if not r['equal']:
                r['want'] = repr(want)[:300]
            if case.get('exact'):
                r['exact'] = pickletools.optimize(pickle.dumps(want, protocol=4)) == data
    except Exception as e:
        r['error'] = type(e).__name__ + ': ' + str(e)
    out.append(r)
json.dump(out, sys.stdout)
`;

interface Result {
  error?: string;
  consumed: boolean;
  strict: boolean;
  frames: number[];
  type: string;
  repr: string;
  dtype?: string;
  descr?: string[][];
  shape?: number[];
  writeable?: boolean;
  equal?: boolean;
  want?: string;
  exact?: boolean;
}

interface Case {
  name: string;
  value: unknown;
  py: string; // the same value as a Python expression (np is numpy)
  exact?: boolean; // byte-identical to pickletools.optimize(pickle.dumps(py))
}

function runPython(cases: Case[]): { status: number | null; stderr: string; results: Result[] } {
  const input = JSON.stringify(
    cases.map((c) => ({ pickle: Buffer.from(encodePickle(c.value)).toString('base64'), py: c.py, exact: c.exact })),
  );
  const r = spawnSync('python3', ['-c', HARNESS], { input, maxBuffer: 1 << 28, encoding: 'utf8' });
  if (r.error) return { status: null, stderr: `${r.error} ${r.stderr ?? ''}`, results: [] };
  return { status: r.status, stderr: r.stderr, results: r.status === 0 ? (JSON.parse(r.stdout) as Result[]) : [] };
}

t.test('python3 with numpy is available (CI installs python3-numpy)', async (t) => {
  const r = spawnSync('python3', ['-c', 'import numpy; print(numpy.__version__)'], { encoding: 'utf8' });
  t.equal(r.status, 0, `python3 -c "import numpy" must work for these tests: ${r.error ?? r.stderr}`);
});

// ---- cases -------------------------------------------------------------------------------------

const ex = (name: string, value: unknown, py: string): Case => ({ name, value, py, exact: true });
const eq = (name: string, value: unknown, py: string): Case => ({ name, value, py });

const scalars: Case[] = [
  ex('null', null, 'None'),
  ex('undefined', undefined, 'None'),
  ex('true', true, 'True'),
  ex('false', false, 'False'),
  ...[
    0,
    1,
    255,
    256,
    65535,
    65536,
    -1,
    -255,
    -256,
    2 ** 31 - 1,
    -(2 ** 31),
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 40 + 7,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ].map((n) => ex(`int ${n}`, n, String(n))),
  ex('float 1.5', 1.5, '1.5'),
  ex('float -2.25', -2.25, '-2.25'),
  ex('float 0.1', 0.1, '0.1'),
  ex('float 1e300', 1e300, '1e300'),
  ex('float 5e-324', 5e-324, '5e-324'),
  ex('float NaN', NaN, "float('nan')"),
  ex('float Infinity', Infinity, "float('inf')"),
  ex('float -Infinity', -Infinity, "float('-inf')"),
  ex('float -0.0', -0, '-0.0'),
  ex('unsafe integer 2**60 is a float', 2 ** 60, 'float(2**60)'),
  ...(
    [
      [0n, '0'],
      [255n, '255'],
      [-(2n ** 31n), '-2**31'],
      [2n ** 31n, '2**31'],
      [127n * 2n ** 32n, '127 * 2**32'],
      [128n * 2n ** 32n, '128 * 2**32'],
      [-(128n * 2n ** 32n), '-128 * 2**32'],
      [-(128n * 2n ** 32n) - 1n, '-128 * 2**32 - 1'],
      [2n ** 63n, '2**63'],
      [-(2n ** 63n), '-2**63'],
      [2n ** 64n - 1n, '2**64 - 1'],
      [2n ** 70n, '2**70'],
      [-(2n ** 70n), '-2**70'],
      [2n ** 3000n, '2**3000'],
      [-(2n ** 3000n) - 1n, '-2**3000 - 1'],
    ] as const
  ).map(([n, py]) => ex(`bigint ${py}`, n, py)),
  ex('empty string', '', "''"),
  ex('ascii', 'hello', "'hello'"),
  ex('latin and cjk', 'é 日本語', "'\\u00e9 \\u65e5\\u672c\\u8a9e'"),
  ex('astral', 'a😀b𝄞', "'a\\U0001F600b\\U0001D11E'"),
  ex('lone high surrogate', '\ud800', "'\\ud800'"),
  ex('lone low surrogate inside', 'a\udc00b', "'a\\udc00b'"),
  ex('pair then lone high at the end', '😀\ud83d', "'\\U0001F600\\ud83d'"),
  ex('reversed pair is two lone surrogates', '\ude00\ud83d', "'\\ude00\\ud83d'"),
  ex('255-byte string (short)', 'x'.repeat(255), "'x' * 255"),
  ex('256-byte string (BINUNICODE)', 'x'.repeat(256), "'x' * 256"),
  ex('multibyte string over 255 bytes', 'é'.repeat(200), "'\\u00e9' * 200"),
  ex('127 two-byte characters: 254 bytes, still short', 'é'.repeat(127), "'\\u00e9' * 127"),
  ex('128 two-byte characters: 256 bytes', 'é'.repeat(128), "'\\u00e9' * 128"),
  ex('43 astral characters (86 UTF-16 units)', '😀'.repeat(43), "'\\U0001F600' * 43"),
  eq('65535-byte string stays framed (as the Pickler, unlike pickletools.optimize)', 'あ'.repeat(21_845), "'\\u3042' * 21845"),
  ex('65538-byte string is written unframed', 'あ'.repeat(21_846), "'\\u3042' * 21846"),
  ex('long string with a lone surrogate', `${'x'.repeat(30_000)}\udfff`, "'x' * 30000 + '\\udfff'"),
  ex('string over 64 KiB is written unframed', 'y'.repeat(70_000), "'y' * 70000"),
  ex('empty bytes', new Uint8Array(0), "b''"),
  ex('Buffer', Buffer.from('abc'), "b'abc'"),
  ex(
    '300 bytes (BINBYTES)',
    Uint8Array.from({ length: 300 }, (_, i) => i % 256),
    'bytes(range(256)) + bytes(range(44))',
  ),
  ex('bytes over 64 KiB', new Uint8Array(70_000).fill(7), 'bytes([7]) * 70000'),
  ex('a Uint8Array view into a larger buffer', new Uint8Array(new Uint8Array([9, 1, 2, 3, 9]).buffer, 1, 3), "b'\\x01\\x02\\x03'"),
];

const containers: Case[] = [
  ex('empty list', [], '[]'),
  ex('one-element list (APPEND)', [1], '[1]'),
  ex('empty dict', {}, '{}'),
  ex('one-entry dict (SETITEM)', { a: 1 }, "{'a': 1}"),
  ex(
    'nested',
    { a: { b: [1, { c: null }, 'x'], d: [] }, e: {}, f: [[[]]] },
    "{'a': {'b': [1, {'c': None}, 'x'], 'd': []}, 'e': {}, 'f': [[[]]]}",
  ),
  ex('undefined values are skipped in dicts, None in lists', { a: 1, b: undefined, c: [undefined, null] }, "{'a': 1, 'c': [None, None]}"),
  // biome-ignore lint/suspicious/noSparseArray: the hole is what is encoded
  ex('array holes are None', [1, , 3], '[1, None, 3]'),
  ex(
    'Map with string, number and bigint keys',
    new Map<unknown, unknown>([
      ['x', 1],
      [2, 'two'],
      [2.5, 'f'],
      [10n ** 20n, 'big'],
      ['skip', undefined],
    ]),
    "{'x': 1, 2: 'two', 2.5: 'f', 10**20: 'big'}",
  ),
  ex(
    '1001-element list: batches of 1000 and 1',
    Array.from({ length: 1001 }, (_, i) => i),
    'list(range(1001))',
  ),
  ex(
    '2001-entry dict: batches of 1000, 1000 and 1',
    Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`k${i}`, i])),
    "{f'k{i}': i for i in range(2001)}",
  ),
  eq(
    '100k-element list',
    Array.from({ length: 100_000 }, (_, i) => i),
    'list(range(100000))',
  ),
  eq(
    '100k strings in a list',
    Array.from({ length: 100_000 }, (_, i) => `s${i}`),
    "[f's{i}' for i in range(100000)]",
  ),
  ex(
    'error-shaped dict',
    { error_code: 40, error_name: 'WrongData', message: 'wrong data: rating 11 is above 10 …', error_data: { name: 'WRONG_DATA_TYPE' } },
    "{'error_code': 40, 'error_name': 'WrongData', 'message': 'wrong data: rating 11 is above 10 \\u2026', 'error_data': {'name': 'WRONG_DATA_TYPE'}}",
  ),
  ex('shared (acyclic) references are written twice', ((s: number[]) => ({ a: s, b: s }))([1, 2]), "{'a': [1, 2], 'b': [1, 2]}"),
  ex('Date via toJSON', { at: new Date(0) }, "{'at': '1970-01-01T00:00:00.000Z'}"),
  ex(
    'class instance: own enumerable properties',
    new (class P {
      x = 1;
      y = 'z';
    })(),
    "{'x': 1, 'y': 'z'}",
  ),
];

const arrays: Case[] = [
  eq('u4', new NumpyArray(new Uint32Array([0, 1, 4_294_967_295])), "np.array([0, 1, 4294967295], dtype='<u4')"),
  eq('i4', new NumpyArray(new Int32Array([-(2 ** 31), -1, 2 ** 31 - 1])), "np.array([-2**31, -1, 2**31 - 1], dtype='<i4')"),
  eq('f4', new NumpyArray(new Float32Array([1.5, -0, 3.4e38])), "np.array([1.5, -0.0, 3.4e38], dtype='<f4')"),
  eq('f8', new NumpyArray(new Float64Array([0.1, NaN, -Infinity, -0])), "np.array([0.1, np.nan, -np.inf, -0.0], dtype='<f8')"),
  eq('i8', new NumpyArray(new BigInt64Array([-(2n ** 63n), -1n, 2n ** 63n - 1n])), "np.array([-2**63, -1, 2**63 - 1], dtype='<i8')"),
  eq('u8', new NumpyArray(new BigUint64Array([0n, 2n ** 64n - 1n])), "np.array([0, 2**64 - 1], dtype='<u8')"),
  eq('u1', new NumpyArray(new Uint8Array([0, 7, 255])), "np.array([0, 7, 255], dtype='u1')"),
  eq('i1', new NumpyArray(new Int8Array([-128, 127])), "np.array([-128, 127], dtype='i1')"),
  eq('u2', new NumpyArray(new Uint16Array([1, 65535])), "np.array([1, 65535], dtype='<u2')"),
  eq('i2', new NumpyArray(new Int16Array([-32768, 5])), "np.array([-32768, 5], dtype='<i2')"),
  eq('bool', new NumpyArray(new Uint8Array([0, 1, 2]), 'bool'), 'np.array([False, True, True])'),
  eq('empty u4', new NumpyArray(new Uint32Array(0)), "np.array([], dtype='<u4')"),
  eq(
    'u4 view into a larger buffer',
    new NumpyArray(new Uint32Array(new Uint32Array([9, 1, 2, 9]).buffer, 4, 2)),
    "np.array([1, 2], dtype='<u4')",
  ),
  eq('strings: width of the longest', new NumpyArray(['ab', 'c', '']), "np.array(['ab', 'c', ''])"),
  eq('strings: astral counts as one character', new NumpyArray(['😀', 'é']), "np.array(['\\U0001F600', '\\u00e9'])"),
  eq('strings: lone surrogate kept', new NumpyArray(['\ud800x']), "np.array(['\\ud800x'])"),
  eq('strings: all empty is U1', new NumpyArray(['', '']), "np.array(['', ''])"),
  eq('strings: no strings is U1', new NumpyArray([]), "np.array([], dtype='<U1')"),
  eq('strings: fixed width U16', new NumpyArray(['item-1', 'x'], 'U16'), "np.array(['item-1', 'x'], dtype='<U16')"),
  eq(
    '400 KB u4 array (data unframed)',
    new NumpyArray(Uint32Array.from({ length: 100_000 }, (_, i) => i * 3)),
    "np.arange(100000, dtype='<u4') * 3",
  ),
  eq(
    'm2m records',
    new NumpyRecords({ item_index: new Uint32Array([0, 1, 1]), value_id: new NumpyArray(['red', 'blue', '😀'], 'U16') }),
    "np.array([(0, 'red'), (1, 'blue'), (1, '\\U0001F600')], dtype=[('item_index', '<u4'), ('value_id', '<U16')])",
  ),
  eq(
    'records: inferred string width',
    new NumpyRecords({ item_id: ['a', 'bcd'], n: new Int32Array([-1, 2]) }),
    "np.array([('a', -1), ('bcd', 2)], dtype=[('item_id', '<U3'), ('n', '<i4')])",
  ),
  eq(
    'records: mixed sizes at packed offsets',
    new NumpyRecords(
      new Map<string, NumpyArray | Float64Array | BigInt64Array | Float32Array | Uint8Array>([
        ['flag', new NumpyArray(new Uint8Array([1, 0]), 'bool')],
        ['timestamp', new Float64Array([1.7e9, 1.5])],
        ['big', new BigInt64Array([-5n, 2n ** 62n])],
        ['rating', new Float32Array([8.5, -0])],
        ['small', new Uint8Array([255, 0])],
      ]),
    ),
    "np.array([(True, 1.7e9, -5, 8.5, 255), (False, 1.5, 2**62, -0.0, 0)], dtype=[('flag', '?'), ('timestamp', '<f8'), ('big', '<i8'), ('rating', '<f4'), ('small', 'u1')])",
  ),
  eq('records: no rows', new NumpyRecords({ a: new Uint32Array(0), b: [] }), "np.array([], dtype=[('a', '<u4'), ('b', '<U1')])"),
  eq(
    'arrays inside a response dict',
    { items_id: new NumpyArray(new Uint32Array([3, 1])), warnings: [], scores: new NumpyArray(new Float32Array([0.5, 0.25])) },
    "{'items_id': np.array([3, 1], dtype='<u4'), 'warnings': [], 'scores': np.array([0.5, 0.25], dtype='<f4')}",
  ),
];

const all = [...scalars, ...containers, ...arrays];
const run = runPython(all);

t.test('Python loads every pickle', async (t) => {
  t.equal(run.status, 0, `python harness failed (python3 with numpy required): ${run.stderr}`);
});

for (const [i, c] of all.entries()) {
  t.test(c.name, async (t) => {
    const r = run.results[i];
    if (!r) return t.fail('no result from Python');
    t.equal(r.error, undefined, 'loads without error or warning');
    t.ok(r.consumed, 'pickle.load reads exactly to STOP');
    t.ok(r.strict, 'pure-Python unpickler (strict framing) agrees');
    t.equal(r.equal, true, `equals the Python value: got ${r.repr}${r.want ? `, want ${r.want}` : ''}`);
    if (c.exact) t.equal(r.exact, true, 'byte-identical to pickletools.optimize(pickle.dumps(v, 4))');
  });
}

const result = (name: string): Result => run.results[all.findIndex((c) => c.name === name)]!;

t.test('Python sees the right types and reprs', async (t) => {
  t.equal(result('float -0.0').repr, '-0.0');
  t.equal(result('float NaN').repr, 'nan');
  t.equal(result('unsafe integer 2**60 is a float').type, 'builtins.float');
  t.equal(result('int 2147483648').type, 'builtins.int');
  t.equal(result('bigint 2**70').repr, '1180591620717411303424');
  t.equal(result('bigint -2**70').repr, '-1180591620717411303424');
  t.equal(result('lone high surrogate').repr, "'\\ud800'");
  t.equal(result('astral').repr, "'a😀b𝄞'");
  t.equal(result('Buffer').type, 'builtins.bytes');
  t.equal(result('error-shaped dict').type, 'builtins.dict');
});

t.test('numpy arrays load as numpy.ndarray with their dtype', async (t) => {
  const dtypes: Record<string, string> = {
    u4: '<u4',
    i4: '<i4',
    f4: '<f4',
    f8: '<f8',
    i8: '<i8',
    u8: '<u8',
    u1: '|u1',
    i1: '|i1',
    u2: '<u2',
    i2: '<i2',
    bool: '|b1',
    'strings: width of the longest': '<U2',
    'strings: astral counts as one character': '<U1',
    'strings: fixed width U16': '<U16',
    'm2m records': '|V68',
  };
  for (const [name, dtype] of Object.entries(dtypes)) {
    const r = result(name);
    t.equal(r.type, 'numpy.ndarray', `${name} is an ndarray`);
    t.equal(r.dtype, dtype, `${name} dtype`);
  }
  t.same(result('m2m records').descr, [
    ['item_index', '<u4'],
    ['value_id', '<U16'],
  ]);
  t.same(result('m2m records').shape, [3]);
  t.same(result('records: mixed sizes at packed offsets').descr, [
    ['flag', '|b1'],
    ['timestamp', '<f8'],
    ['big', '<i8'],
    ['rating', '<f4'],
    ['small', '|u1'],
  ]);
  t.same(result('400 KB u4 array (data unframed)').shape, [100_000]);
});

t.test('framing: small pickles unframed, large ones in frames of about 64 KiB', async (t) => {
  t.same([...encodePickle(null)], [0x80, 4, 0x4e, 0x2e]);
  t.same([...encodePickle(1)], [0x80, 4, 0x4b, 1, 0x2e], 'under 4 bytes: no FRAME header');
  t.same([...encodePickle({ a: 1 }).subarray(0, 3)], [0x80, 4, 0x95], 'PROTO, then the first FRAME');
  const frames = result('100k-element list').frames;
  t.ok(frames.length > 3, `several frames (${frames.length})`);
  t.ok(
    frames.every((n) => n < 66_000),
    'each about 64 KiB',
  );
  t.same(result('bytes over 64 KiB').frames, [], 'large bytes written outside frames');
});

t.test('what cannot be pickled throws a TypeError', async (t) => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const cyclicList: unknown[] = [];
  cyclicList.push({ l: cyclicList });
  t.throws(() => encodePickle(cyclic), { name: 'TypeError', message: /cyclic/ });
  t.throws(() => encodePickle(cyclicList), { name: 'TypeError', message: /cyclic/ });
  t.throws(() => encodePickle(new Map<unknown, unknown>([['m', null]]).set('self', undefined).set('x', new Map([[1, cyclic]]))), {
    name: 'TypeError',
  });
  t.throws(() => encodePickle({ f: () => 1 }), { name: 'TypeError' });
  t.throws(() => encodePickle(Symbol('s')), { name: 'TypeError' });
  t.throws(() => encodePickle(new Set([1])), { name: 'TypeError' });
  t.throws(() => encodePickle(new Float32Array(2)), { name: 'TypeError', message: /NumpyArray/ });
  t.throws(() => encodePickle(new Map([[{}, 1]])), { name: 'TypeError', message: /Map key/ });
});

t.test('NumpyArray and NumpyRecords validate their input', async (t) => {
  t.throws(() => new NumpyArray(new Uint32Array(1), 'bool'), TypeError);
  t.throws(() => new NumpyArray(new Uint8Array(1), 'U4'), TypeError);
  t.throws(() => new NumpyArray(['a'], 'U0' as 'U1'), TypeError);
  t.throws(() => new NumpyArray([1] as unknown as string[]), TypeError);
  t.throws(() => encodePickle(new NumpyArray(['abcde'], 'U4')), RangeError, 'too long for a fixed width');
  t.throws(() => new NumpyRecords({ a: new Uint32Array(2), b: ['x'] }), RangeError);
  t.throws(() => new NumpyRecords({}), TypeError);
});

t.test('JSON renderings of numpy wrappers', async (t) => {
  t.same(JSON.parse(JSON.stringify({ a: new NumpyArray(new Uint32Array([1, 2])), b: new NumpyArray(new Uint8Array([0, 3]), 'bool') })), {
    a: [1, 2],
    b: [false, true],
  });
  t.same(JSON.parse(JSON.stringify(new NumpyArray(new BigInt64Array([5n])))), [5]);
  t.same(JSON.parse(JSON.stringify(new NumpyRecords({ i: new Uint32Array([1, 2]), v: ['x', 'y'] }))), [
    { i: 1, v: 'x' },
    { i: 2, v: 'y' },
  ]);
});
