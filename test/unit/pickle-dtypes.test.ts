// Golden vectors for every numpy dtype the decoder supports, made by a real Python: kinds b, i, u, f
// in every width and both byte orders, U and S (both byte orders for U), structured records with
// explicit offsets and padding, object arrays, C and Fortran order, numpy scalars; each pickled with
// protocols 2 to 5 and decoded to what numpy's own `tolist()` gives.
// Needs python3 with numpy (CI installs python3-numpy).
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { decodePickle, plainOf } from '../../src/codecs/pickle/decode.js';

const GOLDENS = String.raw`
import base64, json, math, pickle, sys
import numpy as np

def expected(v):
    # numpy's own Python values, with integers beyond 2**53 as text (JSON cannot hold them exactly)
    if isinstance(v, (list, tuple)):
        return [expected(x) for x in v]
    if isinstance(v, dict):
        return {k: expected(x) for k, x in v.items()}
    if isinstance(v, bytes):
        return v.decode('latin-1')
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v if abs(v) <= 2**53 else str(v)
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v

cases = []
def add(name, arr):
    value = arr.item() if isinstance(arr, np.generic) else arr.tolist()
    for p in (2, 3, 4, 5):
        cases.append({'name': f'{name}@{p}', 'pickle': base64.b64encode(pickle.dumps(arr, protocol=p)).decode(), 'want': expected(value)})

for kind, values in (('i', [-3, 0, 5]), ('u', [0, 7, 200]), ('f', [1.5, -0.25, 1024.0])):
    for width in ((1, 2, 4, 8) if kind != 'f' else (2, 4, 8)):
        for order in ('<', '>'):
            if width == 1 and order == '>':
                continue
            add(f'{order}{kind}{width}', np.array(values, dtype=f'{order}{kind}{width}'))
add('extremes-i8', np.array([-2**63, 2**63 - 1, 2**53 + 1], dtype='>i8'))
add('extremes-u8', np.array([2**64 - 1, 0, 2**53], dtype='<u8'))
add('extremes-f2', np.array([65504.0, 6.1035156e-05, -0.0, np.inf], dtype='<f2'))
add('b1', np.array([True, False, True], dtype='|b1'))
add('<U3', np.array(['abc', 'h\u00e9', ''], dtype='<U3'))
add('>U3', np.array(['abc', '\U0001F600', 'z'], dtype='>U3'))
add('S4', np.array([b'ab', b'\xff\x00x', b''], dtype='S4'))
padded = np.dtype({'names': ['id', 'score', 'tag'], 'formats': ['<u4', '>f8', 'S3'], 'offsets': [0, 8, 20], 'itemsize': 32})
add('V-offsets', np.array([(1, 2.5, b'ab'), (4294967295, -1e300, b'xyz')], dtype=padded))
add('V-aligned', np.array([(1, 2), (3, 4)], dtype=np.dtype([('a', 'u1'), ('b', '<i8')], align=True)))
add('objects', np.array([1, 'two', None, [3.5]], dtype=object))
add('2d-C', np.arange(6, dtype='>i2').reshape(2, 3))
add('2d-F', np.asfortranarray(np.arange(6, dtype='<f4').reshape(3, 2)))
add('3d', np.arange(24, dtype='<u2').reshape(2, 3, 4))
for name, scalar in (('s-f2', np.float16(0.5)), ('s-i1', np.int8(-8)), ('s-u8', np.uint64(2**64 - 1)), ('s-b', np.bool_(False)), ('s-U', np.str_('\u65e5')), ('s-S', np.bytes_(b'q')), ('s-f8be', np.dtype('>f8').type(2.5))):
    add(name, scalar)
json.dump(cases, sys.stdout)
`;

const r = spawnSync('python3', ['-c', GOLDENS], { encoding: 'utf8', maxBuffer: 1 << 26 });
if (r.status !== 0) throw new Error(`python3 with numpy is required for these tests (CI installs python3-numpy): ${r.stderr}`);
const cases = JSON.parse(r.stdout) as { name: string; pickle: string; want: unknown }[];

// Decoded values in the expectation's terms: 64-bit integers beyond 2^53 as text, byte strings as
// latin-1, infinities and NaN as Python's repr.
function comparable(v: unknown): unknown {
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  if (Array.isArray(v)) return v.map(comparable);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, comparable(x)]));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, comparable(x)]));
  return v;
}

t.test('python3 produced a golden for every dtype and protocol', async (t) => {
  t.ok(cases.length >= 4 * 40, `${cases.length} goldens`);
});

for (const c of cases) {
  t.test(c.name, async (t) => {
    const got = comparable(plainOf(decodePickle(Buffer.from(c.pickle, 'base64'))));
    // Structured rows come back as objects keyed by field; numpy's tolist() gives tuples.
    if (c.name.startsWith('V-')) t.same((got as Record<string, unknown>[]).map((row) => Object.values(row)), c.want);
    else t.same(got, c.want);
  });
}
