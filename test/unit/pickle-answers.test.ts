// Pickle answers as a real Python loads them: ID lists and listings become numpy arrays (structured,
// with repeated values in *_m2m), with the values of the JSON answer; lists numpy cannot hold stay lists.
// Needs python3 with numpy (CI installs python3-numpy).
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { pickleCodec } from '../../src/codecs/pickle.js';

const LOADER = String.raw`
import base64, json, pickle, sys
import numpy as np

def plain(v):
    if isinstance(v, np.ndarray):
        return {'ndarray': [list(f) for f in v.dtype.descr] if v.dtype.names else v.dtype.str, 'values': v.tolist()}
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v

print(json.dumps([plain(pickle.loads(base64.b64decode(b))) for b in json.load(sys.stdin)]))
`;

function loaded(values: unknown[]): any[] {
  const input = JSON.stringify(values.map((v) => Buffer.from(pickleCodec.encode(v) as Uint8Array).toString('base64')));
  const r = spawnSync('python3', ['-c', LOADER], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

t.test('ratings listings become structured arrays of float64 ratings and timestamps', async (t) => {
  const [a, b] = loaded([
    { ratings: [{ user_id: 'u1', item_id: 7, rating: 8, timestamp: 1_700_000_000 }, { user_id: 'u22', item_id: 9, rating: 4.5, timestamp: 1_700_000_001.5 }], has_next: false, next_cursor: '', warnings: [] },
    { user_ratings: [{ item_id: 3, rating: 10, timestamp: 1 }], has_next: true, warnings: ['w'] },
  ]);
  t.same(a.ratings, {
    ndarray: [['user_id', '<U3'], ['item_id', '<u4'], ['rating', '<f8'], ['timestamp', '<f8']],
    values: [['u1', 7, 8, 1_700_000_000], ['u22', 9, 4.5, 1_700_000_001.5]],
  });
  t.same([a.has_next, a.next_cursor, a.warnings], [false, '', []], 'other fields as they are');
  t.same(b.user_ratings, { ndarray: [['item_id', '<u4'], ['rating', '<f8'], ['timestamp', '<f8']], values: [[3, 10, 1]] });
});

t.test('entity listings: scalars as columns, repeated values in *_m2m', async (t) => {
  const [a, u] = loaded([
    {
      items: [
        { item_id: 1, genre: 'drama', price: -3, tags: ['x', 'y'], new: true },
        { item_id: 2, genre: 'comedy', price: 5, new: false },
        { item_id: 3, genre: 'drama', price: 2 ** 40, tags: ['z'], new: true },
      ],
      has_next: false,
      next_cursor: '',
      warnings: [],
    },
    { users: [{ user_id: 'a', scores: [1.5, 2] }, { user_id: 'b', scores: [] }] },
  ]);
  t.same(a.items, {
    ndarray: [['item_id', '<u4'], ['genre', '<U6'], ['price', '<i8'], ['new', '|b1']],
    values: [[1, 'drama', -3, true], [2, 'comedy', 5, false], [3, 'drama', 2 ** 40, true]],
  });
  t.same(a.items_m2m, [{ name: 'tags', array: { ndarray: [['item_index', '<u4'], ['value_id', '<U1']], values: [[0, 'x'], [0, 'y'], [2, 'z']] } }], 'item_index points into the page');
  t.same(u.users, { ndarray: [['user_id', '<U1']], values: [['a'], ['b']] });
  t.same(u.users_m2m, [{ name: 'scores', array: { ndarray: [['user_index', '<u4'], ['value_id', '<f8']], values: [[0, 1.5], [0, 2]] } }]);
});

t.test('ID lists become 1-D arrays; what numpy cannot hold stays a list', async (t) => {
  const [ids, strs, mixed, sparse, nested, empty] = loaded([
    { items_id: [3, 1, 2], next_cursor: '' },
    { users_id: ['a', 'bc'] },
    { items_id: [1, 'a'] },
    { items: [{ item_id: 1, genre: 'a' }, { item_id: 2 }] },
    { interactions: [{ user_id: 'u', item_id: 1, interaction_type: 'view', timestamp: 1, properties: {} }] },
    { ratings: [] },
  ]);
  t.same(ids.items_id, { ndarray: '<u4', values: [3, 1, 2] });
  t.same(strs.users_id, { ndarray: '<U2', values: ['a', 'bc'] });
  t.same(mixed.items_id, [1, 'a'], 'mixed ids: a list');
  t.same(sparse.items, [{ item_id: 1, genre: 'a' }, { item_id: 2 }], 'a scalar field missing from a row: a list of dicts');
  t.equal(sparse.items_m2m, undefined);
  t.same(nested.interactions, [{ user_id: 'u', item_id: 1, interaction_type: 'view', timestamp: 1, properties: {} }], 'nested objects: a list of dicts');
  t.same(empty.ratings, [], 'an empty listing: an empty list');
});
