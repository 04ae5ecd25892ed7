// The model buffer layout: header, aligned non-overlapping sections, byte-exact round trips.
import t from 'tap';
import {
  allocateModel,
  bytesPerItem,
  bytesPerUser,
  LAYOUT_VERSION,
  MODEL_MAGIC,
  modelBytes,
  modelViews,
  NO_SLOT,
  UNLISTED,
  userListOf,
  withUserLists,
  type ModelDims,
  type ModelViews,
} from '../../src/engine/model/layout.js';

const SECTIONS = [
  'userFactors',
  'itemFactors',
  'gram',
  'popularity',
  'itemCounts',
  'itemLists',
  'userListSlots',
  'userLists',
  'listCentroids',
  'listOffsets',
  'listMembers',
] as const;
type SectionName = (typeof SECTIONS)[number];

const CASES: Required<ModelDims>[] = [
  { factors: 0, users: 0, items: 0, itemList: 0, userList: 0, trainedItems: 0, lists: 0, listedUsers: 0 },
  { factors: 1, users: 1, items: 1, itemList: 1, userList: 3, trainedItems: 1, lists: 0, listedUsers: 1 },
  { factors: 5, users: 3, items: 7, itemList: 3, userList: 2, trainedItems: 4, lists: 0, listedUsers: 2 },
  { factors: 4, users: 10, items: 9, itemList: 0, userList: 0, trainedItems: 9, lists: 0, listedUsers: 0 },
  { factors: 3, users: 0, items: 5, itemList: 2, userList: 0, trainedItems: 0, lists: 0, listedUsers: 0 },
  { factors: 7, users: 13, items: 0, itemList: 5, userList: 1, trainedItems: 0, lists: 0, listedUsers: 0 },
  { factors: 32, users: 101, items: 77, itemList: 10, userList: 1, trainedItems: 50, lists: 0, listedUsers: 37 },
  { factors: 5, users: 3, items: 7, itemList: 0, userList: 0, trainedItems: 7, lists: 3, listedUsers: 0 },
  { factors: 4, users: 2, items: 40, itemList: 2, userList: 0, trainedItems: 40, lists: 1, listedUsers: 0 },
  { factors: 4, users: 9, items: 6, itemList: 2, userList: 3, trainedItems: 6, lists: 1, listedUsers: 9 },
];

function expectedLength(d: Required<ModelDims>, s: SectionName): number {
  switch (s) {
    case 'userFactors':
      return d.users * d.factors;
    case 'itemFactors':
      return d.items * d.factors;
    case 'gram':
      return d.factors * d.factors;
    case 'popularity':
    case 'itemCounts':
      return d.items;
    case 'itemLists':
      return d.items * d.itemList;
    case 'userListSlots':
      return d.userList > 0 ? d.users : 0;
    case 'userLists':
      return d.listedUsers * d.userList;
    case 'listCentroids':
      return d.lists * d.factors;
    case 'listOffsets':
      return d.lists > 0 ? d.lists + 1 : 0;
    case 'listMembers':
      return d.lists > 0 ? d.items : 0;
  }
}

// A value distinct per (section, element) and exactly representable in every section's type.
const pattern = (s: number, k: number) => (s + 1) * 100_000 + k;

function fill(v: ModelViews): void {
  SECTIONS.forEach((name, s) => {
    const a = v[name];
    for (let k = 0; k < a.length; k++) a[k] = pattern(s, k);
  });
}

function allMatch(v: ModelViews): boolean {
  return SECTIONS.every((name, s) => {
    const a = v[name];
    for (let k = 0; k < a.length; k++) if (a[k] !== pattern(s, k)) return false;
    return true;
  });
}

t.test('allocateModel and modelViews agree on every section', async (t) => {
  for (const d of CASES) {
    const label = JSON.stringify(d);
    const { buffer, views } = allocateModel(d);
    t.ok(buffer instanceof SharedArrayBuffer, `${label}: shared`);
    t.equal(buffer.byteLength, modelBytes(d), `${label}: modelBytes`);
    t.same(views.dims, d, `${label}: dims`);
    t.equal(views.header[0], MODEL_MAGIC, `${label}: magic`);
    t.equal(views.header[1], LAYOUT_VERSION, `${label}: layout version`);
    const again = modelViews(buffer);
    t.same(again.dims, d, `${label}: dims read back`);

    const spans: [number, number, string][] = [[0, views.header.byteLength, 'header']];
    for (const name of SECTIONS) {
      const a = again[name],
        b = views[name];
      t.equal(a.length, expectedLength(d, name), `${label}: ${name} length`);
      t.equal(a.byteOffset, b.byteOffset, `${label}: ${name} same offset both ways`);
      t.equal(a.buffer, buffer, `${label}: ${name} views the model buffer`);
      t.equal(a.byteOffset % 8, 0, `${label}: ${name} 8-byte aligned`);
      t.ok(a.byteOffset >= 64 && a.byteOffset + a.byteLength <= buffer.byteLength, `${label}: ${name} within the buffer, after the header`);
      spans.push([a.byteOffset, a.byteOffset + a.byteLength, name]);
    }
    spans.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let disjoint = true;
    for (let k = 1; k < spans.length; k++) if (spans[k]![0] < spans[k - 1]![1]) disjoint = false;
    t.ok(disjoint, `${label}: sections do not overlap`);

    // A fresh model is zeroed, no user given a list slot.
    t.ok(
      SECTIONS.every((name) => views[name].every((x) => x === (name === 'userListSlots' ? NO_SLOT : 0))),
      `${label}: zeroed`,
    );
    fill(views);
    t.ok(allMatch(again), `${label}: distinct patterns in every section read back through other views`);
    t.same(modelViews(buffer).dims, d, `${label}: header intact after writing every section`);
  }
});

t.test('the bytes round-trip through a plain ArrayBuffer (as through Redis)', async (t) => {
  for (const d of CASES) {
    const label = JSON.stringify(d);
    const { buffer, views } = allocateModel(d);
    fill(views);
    // Through a Buffer at an arbitrary offset, then into a fresh ArrayBuffer.
    const reply = Buffer.alloc(buffer.byteLength + 13);
    reply.set(new Uint8Array(buffer), 5);
    const copy = new ArrayBuffer(buffer.byteLength);
    new Uint8Array(copy).set(reply.subarray(5, 5 + buffer.byteLength));
    const back = modelViews(copy);
    t.same(back.dims, d, `${label}: dims`);
    t.ok(allMatch(back), `${label}: every section`);
    t.ok(Buffer.from(copy).equals(Buffer.from(buffer)), `${label}: same bytes`);
    // Back into a SharedArrayBuffer.
    const shared = new SharedArrayBuffer(copy.byteLength);
    new Uint8Array(shared).set(new Uint8Array(copy));
    t.ok(allMatch(modelViews(shared)), `${label}: into a SharedArrayBuffer again`);
  }
});

t.test('bad buffers throw', async (t) => {
  const d = { factors: 3, users: 4, items: 5, itemList: 2, userList: 0, trainedItems: 5, lists: 0 };
  const good = () => {
    const { buffer, views } = allocateModel(d);
    fill(views);
    const copy = new ArrayBuffer(buffer.byteLength);
    new Uint8Array(copy).set(new Uint8Array(buffer));
    return copy;
  };
  t.doesNotThrow(() => modelViews(good()));
  const withSlot = (slot: number, v: number) => {
    const b = good();
    new Int32Array(b)[slot] = v;
    return b;
  };
  t.throws(() => modelViews(withSlot(0, 0x12345678)), /magic/, 'wrong magic');
  t.throws(() => modelViews(new ArrayBuffer(modelBytes(d))), /magic/, 'all zeroes');
  t.throws(() => modelViews(withSlot(1, LAYOUT_VERSION + 1)), /layout/, 'newer layout version');
  t.throws(() => modelViews(withSlot(1, 0)), /layout/, 'layout version 0');
  t.throws(() => modelViews(withSlot(2, 4)), 'factors changed: length no longer matches');
  t.throws(() => modelViews(withSlot(4, 6)), 'items changed: length no longer matches');
  t.throws(() => modelViews(withSlot(3, -1)), 'negative users');
  t.throws(() => modelViews(withSlot(6, 6)), 'trainedItems > items');
  t.throws(() => modelViews(withSlot(7, 2)), 'lists changed: length no longer matches');
  const b = good();
  const longer = new ArrayBuffer(b.byteLength + 8);
  new Uint8Array(longer).set(new Uint8Array(b));
  t.throws(() => modelViews(longer), 'trailing bytes');
  t.throws(() => modelViews(b.slice(0, b.byteLength - 8)), 'truncated');
  t.throws(() => modelViews(b.slice(0, 63)), 'shorter than the header');
  t.throws(() => modelViews(new ArrayBuffer(0)), 'empty');
  t.throws(() => allocateModel({ ...d, items: -1 }), 'allocate: negative items');
  t.throws(() => allocateModel({ ...d, factors: 1.5 }), 'allocate: fractional factors');
  t.throws(() => allocateModel({ ...d, trainedItems: 6, lists: 0 }), 'allocate: trainedItems > items');
  t.throws(() => allocateModel({ ...d, userList: 2, listedUsers: 5 }), /listedUsers/, 'allocate: listedUsers > users');
  const listed = allocateModel({ ...d, userList: 2, listedUsers: 2 }).buffer;
  const withListed = (v: number) => {
    const b = listed.slice(0);
    new Int32Array(b)[9] = v;
    return b;
  };
  t.throws(() => modelViews(withListed(3)), 'listed users changed: length no longer matches');
  t.throws(() => modelViews(withListed(-1)), 'negative listed users');
});

t.test('bytesPerItem and bytesPerUser match modelBytes', async (t) => {
  for (const factors of [1, 2, 3, 4, 7, 16, 33, 64]) {
    for (const [itemList, userList, lists] of [
      [0, 0, 0],
      [1, 2, 0],
      [5, 5, 0],
      [10, 0, 0],
      [128, 128, 0],
      [0, 7, 3],
      [20, 20, 1],
    ] as const) {
      for (const users of [0, 1, 7, 64]) {
        for (const items of [0, 8, 16, 800]) {
          const d = { factors, users, items, itemList, userList, trainedItems: 0, lists };
          const label = JSON.stringify(d);
          const bpi = bytesPerItem(factors, itemList, lists);
          t.equal(modelBytes({ ...d, items: items + 8 }) - modelBytes(d), 8 * bpi, `${label}: 8 more items`);
          const one = modelBytes({ ...d, items: items + 1 }) - modelBytes(d);
          // Up to six sections grow with items, each padded to 8 bytes.
          t.ok(Math.abs(one - bpi) <= 6 * 7, `${label}: one more item adds ${one}, bytesPerItem ${bpi}`);
          const bpu = bytesPerUser(factors, userList),
            unlisted = bytesPerUser(factors, userList, false);
          if (users % 2 === 0) {
            t.equal(modelBytes({ ...d, users: users + 2, listedUsers: 2 }) - modelBytes(d), 2 * bpu, `${label}: 2 more listed users`);
            t.equal(modelBytes({ ...d, users: users + 2 }) - modelBytes(d), 2 * unlisted, `${label}: 2 more users without lists`);
          }
          const u1 = modelBytes({ ...d, users: users + 1, listedUsers: 1 }) - modelBytes(d);
          t.ok(Math.abs(u1 - bpu) <= 3 * 7, `${label}: one more listed user adds ${u1}, bytesPerUser ${bpu}`);
        }
      }
    }
  }
});

// Sizes only (nothing allocated): past 2 GiB the offsets must not wrap as int32 arithmetic would.
t.test('the size of a model past 2 GiB and 4 GiB is the sum of its sections', async (t) => {
  for (const d of [
    { factors: 32, users: 20_000_000, items: 100_000, itemList: 0, userList: 0, trainedItems: 100_000, lists: 0 },
    { factors: 32, users: 20_000_000, items: 100_000, itemList: 20, userList: 20, trainedItems: 100_000, lists: 0, listedUsers: 4_000_000 },
    {
      factors: 32,
      users: 20_000_000,
      items: 100_000,
      itemList: 128,
      userList: 128,
      trainedItems: 100_000,
      lists: 0,
      listedUsers: 20_000_000,
    },
    { factors: 33, users: 20_000_001, items: 99_999, itemList: 3, userList: 0, trainedItems: 99_999, lists: 0 },
  ]) {
    const listed = ('listedUsers' in d ? d.listedUsers : 0) ?? 0;
    const sum =
      64
      + [
        d.users * d.factors * 4,
        d.items * d.factors * 4,
        d.factors * d.factors * 8,
        d.items * 4,
        d.items * 4,
        d.items * d.itemList * 4,
        d.userList > 0 ? d.users * 4 : 0,
        listed * d.userList * 4,
      ].reduce((a, n) => a + Math.ceil(n / 8) * 8, 0);
    t.equal(modelBytes(d), sum, `${JSON.stringify(d)}: ${sum} bytes`);
    t.equal(
      modelBytes({ ...d, users: d.users + 2, listedUsers: listed + 2 }) - modelBytes(d),
      2 * bytesPerUser(d.factors, d.userList),
      "two more listed users add two users' bytes",
    );
  }
});

// Layout 1 (before user lists): its sections as that build wrote them, its neighbours read as item lists.
t.test('a layout 1 model reads, its neighbours as item lists and no user lists', async (t) => {
  const d = { factors: 3, users: 4, items: 5, neighbours: 2, lists: 0 };
  const f32 = (n: number) => n * 4;
  const align8 = (n: number) => (n + 7) & ~7;
  const sizes = [
    f32(d.users * d.factors),
    f32(d.items * d.factors),
    d.factors * d.factors * 8,
    f32(d.items),
    f32(d.items),
    f32(d.items * d.neighbours),
    f32(d.items * d.neighbours),
  ];
  let at = 64;
  const offsets = sizes.map((n) => {
    const o = at;
    at = align8(at + n);
    return o;
  });
  const buffer = new ArrayBuffer(at);
  const header = new Int32Array(buffer, 0, 16);
  header.set([MODEL_MAGIC, 1, d.factors, d.users, d.items, d.neighbours, d.items, d.lists]);
  new Uint32Array(buffer, offsets[5]!, d.items * d.neighbours).set([1, 2, 0, 2, 0, 1, 4, 0xffffffff, 3, 0xffffffff]);
  new Float32Array(buffer, offsets[1]!, d.items * d.factors).fill(0.5);
  const v = modelViews(buffer);
  t.same(v.dims, { factors: 3, users: 4, items: 5, itemList: 2, userList: 0, trainedItems: 5, lists: 0, listedUsers: 0 });
  t.same([...v.itemLists], [1, 2, 0, 2, 0, 1, 4, 0xffffffff, 3, 0xffffffff], 'neighbour indices as item lists');
  t.equal(v.userLists.length, 0, 'no user lists');
  t.ok(
    v.itemFactors.every((x) => x === 0.5),
    'sections before the lists where layout 1 had them',
  );
});

// Layout 2 (a list slot for every user, UNLISTED first when not computed): its users' slots are their rows.
t.test('a layout 2 model reads, every user with a slot of their own', async (t) => {
  const d = { factors: 2, users: 3, items: 4, itemList: 1, userList: 2 };
  const align8 = (n: number) => (n + 7) & ~7;
  const sizes = [
    d.users * d.factors * 4,
    d.items * d.factors * 4,
    d.factors * d.factors * 8,
    d.items * 4,
    d.items * 4,
    d.items * d.itemList * 4,
    d.users * d.userList * 4,
  ];
  let at = 64;
  const offsets = sizes.map((n) => {
    const o = at;
    at = align8(at + n);
    return o;
  });
  const buffer = new ArrayBuffer(at);
  new Int32Array(buffer, 0, 16).set([MODEL_MAGIC, 2, d.factors, d.users, d.items, d.itemList, d.items, 0, d.userList]);
  new Uint32Array(buffer, offsets[6]!, d.users * d.userList).set([3, 1, UNLISTED, 0, 2, 0xffffffff]);
  const v = modelViews(buffer);
  t.same(v.dims, { ...d, trainedItems: 4, lists: 0, listedUsers: 3 });
  t.equal(v.userListSlots.length, 0, 'no slots section');
  t.same([...userListOf(v, 0)], [3, 1]);
  t.same([...userListOf(v, 1)], [UNLISTED, 0], 'not computed: UNLISTED first');
  t.same([...userListOf(v, 2)], [2, 0xffffffff]);
  t.same([...userListOf(v, 3)], [], 'a row past the users');
});

t.test('withUserLists: lists for the listed users only, every other section kept', async (t) => {
  const d = { factors: 2, users: 5, items: 4, itemList: 1, userList: 2, trainedItems: 4, lists: 1 };
  const { buffer, views } = allocateModel(d);
  views.userFactors.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  views.listMembers.set([3, 2, 1, 0]);
  const out = modelViews(withUserLists(buffer, Uint32Array.of(4, 1), [Uint32Array.of(0, 1), Uint32Array.of(2, 0xffffffff)]));
  t.same(out.dims, { ...d, listedUsers: 2 });
  t.same([...userListOf(out, 4)], [0, 1], 'the first listed user: slot 0');
  t.same([...userListOf(out, 1)], [2, 0xffffffff], 'the second: slot 1');
  t.same(
    [0, 2, 3].map((u) => userListOf(out, u).length),
    [0, 0, 0],
    'the others: no list',
  );
  t.same([...out.userFactors], [...views.userFactors]);
  t.same([...out.listMembers], [3, 2, 1, 0], 'sections after the lists where they belong');
  t.throws(() => withUserLists(buffer, Uint32Array.of(4, 1), [Uint32Array.of(0, 1)]), /list slots/, 'lists of the wrong length');
});
