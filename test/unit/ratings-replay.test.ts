// Ratings replay (snapshot + log → compacted ratings) and the snapshot blob codec.
import t, { type Test } from 'tap';
import { decodeSnapshot, encodeSnapshot, replay, type Snapshot } from '../../src/engine/training/ratings-replay.js';
import type { LogEntry } from '../../src/store/ratings-log.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

type Rec = [user: number, item: number, rating: number, timestamp: number];

// A put/infer entry as the Lua scripts write it: distinct u and i lists (in `order` or first-seen
// order) and 24-byte big-endian records of positions into them. `offset` places r at an odd
// byteOffset inside a larger Buffer, as ioredis replies can be.
function writeEntry(op: 'put' | 'infer', recs: Rec[], rand?: () => number, offset = 0): LogEntry {
  const us: number[] = [];
  const is: number[] = [];
  for (const [u, i] of recs) {
    if (!us.includes(u)) us.push(u);
    if (!is.includes(i)) is.push(i);
  }
  if (rand) {
    shuffle(us, rand);
    shuffle(is, rand);
  }
  const whole = Buffer.alloc(offset + recs.length * 24 + 5, 0xee);
  const r = whole.subarray(offset, offset + recs.length * 24);
  recs.forEach(([u, i, rating, ts], k) => {
    r.writeUInt32BE(us.indexOf(u), k * 24);
    r.writeUInt32BE(is.indexOf(i), k * 24 + 4);
    r.writeDoubleBE(rating, k * 24 + 8);
    r.writeDoubleBE(ts, k * 24 + 16);
  });
  return { op, u: us.join(','), i: is.join(','), r };
}

const del = (u: number, i: number): LogEntry => ({ op: 'delete', u: String(u), i: String(i), r: undefined });
const delUser = (u: number): LogEntry => ({ op: 'delete-user', u: String(u), i: '', r: undefined });

function shuffle<T>(a: T[], rand: () => number): void {
  for (let k = a.length - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    [a[k], a[j]] = [a[j]!, a[k]!];
  }
}

function snapshotOf(recs: Rec[]): Snapshot {
  const s = [...recs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    users: Uint32Array.from(s, (x) => x[0]),
    items: Uint32Array.from(s, (x) => x[1]),
    ratings: Float32Array.from(s, (x) => x[2]),
    timestamps: Float64Array.from(s, (x) => x[3]),
  };
}

function rowsOf(s: Snapshot): Rec[] {
  return Array.from(s.users, (u, k) => [u, s.items[k]!, s.ratings[k]!, s.timestamps[k]!] as Rec);
}

// The obvious model: a Map keyed by pair, applied in write order.
function modelReplay(base: Snapshot | undefined, log: LogEntry[]): Rec[] {
  const m = new Map<string, Rec>();
  if (base) for (const r of rowsOf(base)) m.set(`${r[0]},${r[1]}`, r);
  for (const e of log) {
    if (e.op === 'put' || e.op === 'infer') {
      const us = e.u.split(',').map(Number),
        is = e.i.split(',').map(Number);
      const r = Buffer.from(e.r!.buffer, e.r!.byteOffset, e.r!.byteLength);
      for (let at = 0; at < r.length; at += 24) {
        const u = us[r.readUInt32BE(at)]!,
          i = is[r.readUInt32BE(at + 4)]!;
        m.delete(`${u},${i}`); // re-insert: order does not matter, output is sorted below
        m.set(`${u},${i}`, [u, i, Math.fround(r.readDoubleBE(at + 8)), r.readDoubleBE(at + 16)]);
      }
    } else if (e.op === 'delete') m.delete(`${e.u},${e.i}`);
    else if (e.op === 'delete-user') {
      for (const [k, r] of m) if (r[0] === Number(e.u)) m.delete(k);
    } else throw new Error(`unknown op ${e.op}`);
  }
  return [...m.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function checkShape(t: Test, s: Snapshot, label: string): void {
  t.ok(
    s.users instanceof Uint32Array
      && s.items instanceof Uint32Array
      && s.ratings instanceof Float32Array
      && s.timestamps instanceof Float64Array,
    `${label}: column types`,
  );
  const n = s.users.length;
  t.ok(s.items.length === n && s.ratings.length === n && s.timestamps.length === n, `${label}: column lengths`);
  let sorted = true;
  for (let k = 1; k < n; k++) {
    const a = s.users[k - 1]!,
      b = s.users[k]!;
    if (!(a < b || (a === b && s.items[k - 1]! < s.items[k]!))) sorted = false;
  }
  t.ok(sorted, `${label}: strictly sorted by (user, item)`);
}

t.test('a hand example covering every op', async (t) => {
  const base = snapshotOf([
    [0, 1, 5, 100],
    [1, 0, 3, 100],
    [1, 2, 4, 100],
    [2, 2, 1, 100],
    [4, 7, 2, 100],
  ]);
  const log: LogEntry[] = [
    // Overwrites (0,1) twice in one entry (the later record wins), adds user 3.
    writeEntry('put', [
      [0, 1, 2, 200],
      [3, 0, 1, 200],
      [0, 1, 7, 210],
    ]),
    writeEntry(
      'infer',
      [
        [1, 3, 1.5, 220],
        [4, 7, 0.1, 230],
      ],
      undefined,
      3,
    ),
    del(1, 0),
    delUser(2), // removes (2,2) of the snapshot
    writeEntry('put', [[2, 0, 9, 300]]), // after the delete-user: stays
    del(3, 5), // nothing there
    delUser(1), // removes (1,2) from the snapshot and (1,3) from the log
    writeEntry('infer', [[1, 4, 2, 400]]),
    del(0, 1),
    writeEntry('put', [[0, 1, 6, 500]]), // re-added after its delete
    delUser(9), // unknown user
  ];
  const out = replay(base, log);
  checkShape(t, out, 'hand');
  t.same(rowsOf(out), [
    [0, 1, 6, 500],
    [1, 4, 2, 400],
    [2, 0, 9, 300],
    [3, 0, 1, 200],
    [4, 7, Math.fround(0.1), 230],
  ]);
  t.same(rowsOf(out), modelReplay(base, log), 'the model agrees');
  // The base snapshot is not modified.
  t.same(rowsOf(base), [
    [0, 1, 5, 100],
    [1, 0, 3, 100],
    [1, 2, 4, 100],
    [2, 2, 1, 100],
    [4, 7, 2, 100],
  ]);
});

t.test('edge cases', async (t) => {
  const empty = replay(undefined, []);
  checkShape(t, empty, 'empty');
  t.equal(empty.users.length, 0);
  const base = snapshotOf([
    [0, 0, 1, 1],
    [0, 3, 2, 2],
    [5, 1, 3, 3],
  ]);
  t.same(rowsOf(replay(base, [])), rowsOf(base), 'no log: the snapshot');
  t.same(rowsOf(replay(snapshotOf([]), [])), [], 'empty snapshot');
  t.same(rowsOf(replay(base, [delUser(0), delUser(5)])), [], 'everyone deleted');
  t.same(rowsOf(replay(undefined, [del(0, 0), delUser(0)])), [], 'deletes of nothing');
  t.same(
    rowsOf(replay(undefined, [delUser(0), writeEntry('put', [[0, 0, 1, 1]]), delUser(0), writeEntry('put', [[0, 2, 3, 4]])])),
    [[0, 2, 3, 4]],
    'repeated delete-user: only ratings after the last stay',
  );
  t.same(rowsOf(replay(undefined, [writeEntry('put', [])])), [], 'a put without records');
  // Large dense indices.
  const big = replay(undefined, [
    writeEntry('put', [
      [3_000_000, 2_000_000, 1, 1],
      [7, 2_000_000, 2, 2],
      [3_000_000, 5, 3, 3],
    ]),
  ]);
  t.same(rowsOf(big), [
    [7, 2_000_000, 2, 2],
    [3_000_000, 5, 3, 3],
    [3_000_000, 2_000_000, 1, 1],
  ]);
  t.throws(() => replay(undefined, [{ op: 'frobnicate', u: '0', i: '0', r: undefined }]), /unknown op/);
});

// Random logs of up to `users` users and `items` items, `entries` log entries; `runs` seeds.
const randomLogs = (name: string, runs: number, users: number, items: number, entries: number) =>
  t.test(name, async (t) => {
    let mismatches = 0;
    for (let seed = 1; seed <= runs; seed++) {
      const rand = mulberry32(seed);
      const nu = 1 + Math.floor(rand() * users),
        ni = 1 + Math.floor(rand() * items);
      const pick = (n: number) => Math.floor(rand() * n);
      const rating = () => (rand() < 0.5 ? 1 + pick(5) : rand() * 10 - 2);
      let base: Snapshot | undefined;
      if (seed % 3 !== 0) {
        const recs = new Map<string, Rec>();
        const n = pick(25);
        for (let k = 0; k < n; k++) {
          const u = pick(nu),
            i = pick(ni);
          recs.set(`${u},${i}`, [u, i, Math.fround(rating()), 1000 + k]);
        }
        base = snapshotOf([...recs.values()]);
      }
      const log: LogEntry[] = [];
      const len = pick(entries);
      let ts = 2000;
      for (let k = 0; k < len; k++) {
        const x = rand();
        if (x < 0.6) {
          const recs: Rec[] = [];
          const n = 1 + pick(8);
          for (let j = 0; j < n; j++) recs.push([pick(nu), pick(ni), rating(), ts++]);
          log.push(writeEntry(rand() < 0.5 ? 'put' : 'infer', recs, rand, pick(4)));
        } else if (x < 0.85) log.push(del(pick(nu), pick(ni)));
        else log.push(delUser(pick(nu)));
      }
      const out = replay(base, log);
      const want = modelReplay(base, log);
      const got = rowsOf(out);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        mismatches++;
        if (mismatches <= 3) t.same(got, want, `seed ${seed}`);
      }
      if (seed <= 20) checkShape(t, out, `seed ${seed}`);
    }
    t.equal(mismatches, 0, `all ${runs} random logs agree`);
  });
randomLogs('agrees with a Map model on random logs', 400, 8, 10, 30);
// A user's events past 32 are sorted by item another way than short runs.
randomLogs('agrees with a Map model where a user has hundreds of events', 60, 2, 300, 120);

t.test('encode/decode round trip', async (t) => {
  const rand = mulberry32(7);
  for (const n of [0, 1, 2, 3, 5, 8, 1000]) {
    const recs: Rec[] = [];
    const seen = new Set<string>();
    while (recs.length < n) {
      const u = Math.floor(rand() * 100),
        i = Math.floor(rand() * 100);
      if (seen.has(`${u},${i}`)) continue;
      seen.add(`${u},${i}`);
      recs.push([u, i, Math.fround(rand() * 5), 1.7e9 + rand() * 1e6]);
    }
    const s = snapshotOf(recs);
    const blob = encodeSnapshot(s);
    t.ok(blob instanceof Uint8Array, `n=${n}: a Uint8Array`);
    t.equal(new DataView(blob.buffer, blob.byteOffset).getUint32(0, true), n, `n=${n}: count first, little-endian`);
    const back = decodeSnapshot(blob);
    checkShape(t, back, `n=${n}`);
    t.same(rowsOf(back), rowsOf(s), `n=${n}: round trip`);
    t.same(encodeSnapshot(back), blob, `n=${n}: re-encoding gives the same bytes`);

    // At an odd byteOffset inside a larger buffer, like a Redis reply.
    for (const offset of [1, 3, 5, 7]) {
      const whole = Buffer.alloc(offset + blob.byteLength + 11, 0xab);
      whole.set(blob, offset);
      const sub = whole.subarray(offset, offset + blob.byteLength);
      const got = decodeSnapshot(sub);
      t.same(rowsOf(got), rowsOf(s), `n=${n}: decoded at byteOffset ${offset}`);
      whole.fill(0); // the decoded snapshot does not alias the reply's bytes
      t.same(rowsOf(got), rowsOf(s), `n=${n}, offset ${offset}: unaffected by later changes to the source`);
    }
  }
  t.equal(encodeSnapshot(snapshotOf([])).byteLength, 8, 'the empty snapshot is just its 8-byte header');
});

t.test('truncated or garbage blobs throw', async (t) => {
  const s = snapshotOf([
    [0, 1, 2, 3],
    [1, 1, 4, 5],
    [2, 0, 1, 1],
  ]);
  const blob = encodeSnapshot(s);
  let allThrew = true;
  for (let len = 0; len < blob.byteLength; len++) {
    try {
      decodeSnapshot(blob.subarray(0, len));
      allThrew = false;
      t.fail(`a blob truncated to ${len} bytes decoded`);
    } catch {
      // expected
    }
  }
  t.ok(allThrew, 'every truncation throws');
  const longer = new Uint8Array(blob.byteLength + 8);
  longer.set(blob);
  t.throws(() => decodeSnapshot(longer), 'trailing bytes');
  t.throws(() => decodeSnapshot(new Uint8Array(0)), 'empty');
  t.throws(() => decodeSnapshot(new Uint8Array([1, 2, 3])), 'shorter than the header');
  t.throws(() => decodeSnapshot(Buffer.from('this is not a ratings snapshot')), 'text');
  const lying = new Uint8Array(48);
  new DataView(lying.buffer).setUint32(0, 1000, true);
  t.throws(() => decodeSnapshot(lying), 'count larger than the blob');
  const huge = new Uint8Array(64);
  new DataView(huge.buffer).setUint32(0, 0xffffffff, true);
  t.throws(() => decodeSnapshot(huge), 'count 2^32-1');
  const rand = mulberry32(3);
  let garbageThrew = 0;
  for (let k = 0; k < 200; k++) {
    const g = new Uint8Array(8 + Math.floor(rand() * 200));
    for (let j = 0; j < g.length; j++) g[j] = Math.floor(rand() * 256);
    g[3] = 1 + Math.floor(rand() * 255); // count >= 2^24: never fits
    try {
      decodeSnapshot(g);
    } catch {
      garbageThrew++;
    }
  }
  t.equal(garbageThrew, 200, 'random garbage throws');
});
