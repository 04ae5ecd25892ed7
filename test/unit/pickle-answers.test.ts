// Pickle answers shaped for binary clients: ID lists and listings as numpy arrays, repeated values in
// *_m2m, and the cases that stay lists. Read back with the project's decoder (the Python interop test
// loads the same answers with numpy).
import t from 'tap';
import { pickleCodec } from '../../src/codecs/pickle.js';
import { decodePickle, type NdArray } from '../../src/codecs/pickle/decode.js';

const roundTrip = (v: unknown) => decodePickle(pickleCodec.encode(v) as Uint8Array) as Record<string, unknown>;
const dtypes = (a: unknown) => (a as NdArray).dtype.fields?.map((f) => [f.name, f.dtype.kind + f.dtype.itemsize]);

t.test('an items listing: a structured array, repeated values in items_m2m, missing numbers as NaN', async (t) => {
  const out = roundTrip({
    items: [
      { item_id: 1, price: 2.5, stock: 3, title: 'a', tags: ['x', 'y'], on: true },
      { item_id: 2, stock: -4, title: 'bcd', tags: [], on: false },
      { item_id: 3, price: 1, stock: 70000, on: true },
    ],
    has_next: false,
    warnings: [],
  });
  t.same(dtypes(out.items), [
    ['item_id', 'u4'],
    ['price', 'f8'],
    ['stock', 'i4'],
    ['title', 'U12'],
    ['on', 'b1'],
  ]);
  const rows = (out.items as NdArray).toPlain() as Record<string, unknown>[];
  t.ok(Number.isNaN(rows[1]!.price), 'a missing number is NaN');
  t.same(rows[2], { item_id: 3, price: 1, stock: 70000, title: '', on: true }, "a missing string is ''");
  const m2m = out.items_m2m as { name: string; array: NdArray }[];
  t.equal(m2m.length, 1);
  t.equal(m2m[0]!.name, 'tags');
  t.same(m2m[0]!.array.toPlain(), [
    { item_index: 0, value_id: 'x' },
    { item_index: 0, value_id: 'y' },
  ]);
  t.same(out.has_next, false);
});

t.test('ratings keep float dtypes; ID lists are 1-D arrays; what does not fit one dtype stays a list', async (t) => {
  const r = roundTrip({ user_ratings: [{ item_id: 'a', rating: 8, timestamp: 1 }], items_id: [1, 2], users_id: ['u', 'v'] });
  t.same(dtypes(r.user_ratings), [
    ['item_id', 'U4'],
    ['rating', 'f8'],
    ['timestamp', 'f8'],
  ]);
  t.ok((r.items_id as NdArray).data instanceof Uint32Array);
  t.same((r.users_id as NdArray).toPlain(), ['u', 'v']);
  const mixed = roundTrip({
    items: [
      { item_id: 1, v: 'a' },
      { item_id: 2, v: 3 },
    ],
    users: [{ user_id: 1, b: true }, { user_id: 2 }],
    items_id: [1, 'x'],
  });
  t.same(
    mixed.items,
    [
      { item_id: 1, v: 'a' },
      { item_id: 2, v: 3 },
    ],
    'mixed kinds in a field',
  );
  t.same(mixed.users, [{ user_id: 1, b: true }, { user_id: 2 }], 'a boolean missing somewhere');
  t.same(mixed.items_id, [1, 'x']);
  t.equal(mixed.items_m2m, undefined);
  t.same(roundTrip({ items: [], warnings: [] }), { items: [], warnings: [] }, 'an empty listing stays a list');
});
