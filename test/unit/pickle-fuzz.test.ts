// Seeded fuzz of the pickle decoder: random mutations of Python-made pickles and random bytes must either
// decode or throw DecodeError — from the decoder's own checks, not from the catch-all in decodePickle.
// Needs python3 with numpy (CI installs python3-numpy); without it these tests fail.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { DecodeError } from '../../src/codecs/codec.js';
import { resolveLimits } from '../../src/codecs/pickle/limits.js';
import { plainOf } from '../../src/codecs/pickle/ndarray.js';
import { unpickle } from '../../src/codecs/pickle/unpickle.js';

const SCRIPT = `
import base64, json, pickle, sys
import numpy as np
ratings = np.array([(1, 2, 3.5, 1.7e9), (7, 8, -1.0, 2.0)],
                   dtype=[('user_id', '<u4'), ('item_id', '<u4'), ('rating', '<f4'), ('timestamp', '<f8')])
m2m = np.array([(0, 'red'), (1, 'gr\\u00fcn')], dtype=[('item_index', '<u4'), ('value_id', '<U16')])
values = [
    {'ratings': ratings},
    {'items_m2m': [{'name': 'tags', 'array': m2m}], 'items_id': np.arange(5, dtype='<u4')},
    [None, True, False, 1, -300, 70000, 2**70, 1.5, 'h\\u00e9\\U0001F600', b'\\x00\\xff', (1, 2, 3, 4), {5}, frozenset([6])],
    {'a': {'b': [[1], (2,)], 'c': {1: 'x'}}, 's': np.str_('x'), 'f': np.float32(2.5), 'i': np.int64(-3)},
    [np.array([[1, 2], [3, 4]], dtype='>i2', order='F'), np.array(['a', None], dtype=object), np.array([b'ab'], dtype='S4')],
]
out = [base64.b64encode(pickle.dumps(v, protocol=p)).decode() for v in values for p in (2, 3, 4, 5)]
json.dump(out, sys.stdout)
`;

function goldens(): Uint8Array[] {
  const r = spawnSync('python3', ['-c', SCRIPT], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 with numpy is required for these tests (CI installs python3-numpy): ${r.error ?? r.stderr}`);
  return (JSON.parse(r.stdout) as string[]).map((s) => new Uint8Array(Buffer.from(s, 'base64')));
}

const rng = mulberry32;

const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x28, 0x2e, 0x94, 0x95, 0x93, 0x52, 0x62, 0x68, 0x8d, 0x8e];

function mutate(src: Uint8Array, r: () => number): Uint8Array {
  const bytes = Array.from(src);
  const n = 1 + Math.floor(r() * 4);
  const pick = (len: number) => Math.floor(r() * Math.max(1, len));
  for (let k = 0; k < n; k++) {
    const at = pick(bytes.length);
    switch (Math.floor(r() * 7)) {
      case 0:
        bytes[at] = Math.floor(r() * 256);
        break;
      case 1:
        bytes[at] = INTERESTING[pick(INTERESTING.length)] as number;
        break;
      case 2:
        bytes.splice(at, 0, Math.floor(r() * 256));
        break;
      case 3:
        bytes.splice(at, 1 + pick(8));
        break;
      case 4:
        bytes.splice(at, 0, ...bytes.slice(pick(bytes.length), pick(bytes.length) + 16));
        break;
      case 5:
        bytes.length = at;
        break;
      default:
        bytes[at] = (bytes[at] ?? 0) ^ (1 << pick(8));
    }
  }
  return new Uint8Array(bytes);
}

function randomBytes(r: () => number): Uint8Array {
  const len = Math.floor(r() * 64);
  const out = new Uint8Array(len + 3);
  out[0] = 0x80;
  out[1] = 2 + Math.floor(r() * 4);
  for (let i = 2; i < out.length - 1; i++)
    out[i] = r() < 0.5 ? (INTERESTING[Math.floor(r() * INTERESTING.length)] as number) : Math.floor(r() * 256);
  out[out.length - 1] = 0x2e;
  return out;
}

t.test('mutated and random pickles decode or throw DecodeError', async (t) => {
  const seeds = goldens();
  t.ok(seeds.length >= 20, 'python3 produced the seed pickles');
  for (const s of seeds) t.doesNotThrow(() => plainOf(unpickle(s, resolveLimits(s.length))), 'seed decodes');
  const r = rng(0x5eed);
  const started = Date.now();
  let ok = 0;
  let refused = 0;
  const bad: string[] = [];
  for (let i = 0; i < 24000; i++) {
    const input = i % 4 === 3 ? randomBytes(r) : mutate(seeds[i % seeds.length] as Uint8Array, r);
    try {
      plainOf(unpickle(input, resolveLimits(input.length)));
      ok++;
    } catch (e) {
      if (e instanceof DecodeError) refused++;
      else if (bad.length < 5) bad.push(`#${i} ${Buffer.from(input).toString('hex')}: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }
  t.same(bad, [], 'no exception other than DecodeError');
  t.ok(refused > 0 && ok > 0, `${ok} decoded, ${refused} refused`);
  t.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
});
