// csrFromSorted: triples already in (row, column) order, as a ratings snapshot holds them.
import t from 'tap';
import { csrFromSorted, csrFromTriples, transpose } from '../../native-free-kernels/csr.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

t.test('csrFromSorted equals csrFromTriples on sorted triples, shared or not', async (t) => {
  for (let seed = 1; seed <= 20; seed++) {
    const rand = mulberry32(seed);
    const rows = 1 + Math.floor(rand() * 30),
      cols = 1 + Math.floor(rand() * 30);
    const r: number[] = [],
      c: number[] = [],
      v: number[] = [];
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (rand() < 0.2) r.push(i), c.push(j), v.push(Math.fround(rand() * 5));
    const args = [rows, cols, Uint32Array.from(r), Uint32Array.from(c), Float32Array.from(v)] as const;
    const want = csrFromTriples(...args);
    for (const shared of [false, true]) {
      const got = csrFromSorted(...args, shared);
      t.same([...got.indptr], [...want.indptr], `seed ${seed}: row pointers`);
      t.same([...got.indices], [...want.indices], `seed ${seed}: columns`);
      t.same([...got.values], [...want.values], `seed ${seed}: values`);
      t.equal(got.indices.buffer instanceof SharedArrayBuffer, shared, 'in shared memory when asked');
      const tr = transpose(got, shared);
      t.same([...tr.indices], [...transpose(want).indices], `seed ${seed}: its transpose`);
      t.equal(tr.values.buffer instanceof SharedArrayBuffer, shared);
    }
  }
});

t.test('csrFromSorted refuses triples out of order, repeated or out of range', async (t) => {
  const u = (...x: number[]) => Uint32Array.from(x);
  const f = (...x: number[]) => Float32Array.from(x);
  t.throws(() => csrFromSorted(2, 3, u(1, 0), u(0, 0), f(1, 1)), /out of \(row, column\) order at 1/);
  t.throws(() => csrFromSorted(2, 3, u(0, 0), u(2, 1), f(1, 1)), /out of \(row, column\) order at 1/);
  t.throws(() => csrFromSorted(2, 3, u(0, 0), u(1, 1), f(1, 1)), /out of \(row, column\) order at 1/);
  t.throws(() => csrFromSorted(2, 3, u(0, 2), u(0, 0), f(1, 1)), /out of range at 1/);
  t.throws(() => csrFromSorted(2, 3, u(0), u(3), f(1)), /out of range at 0/);
  t.throws(() => csrFromSorted(2, 3, u(0, 1), u(0), f(1, 1)), /differ in length/);
  const ok = csrFromSorted(2, 3, u(0, 0, 1), u(0, 2, 1), f(1, 2, 3));
  t.same([...ok.indptr], [0, 2, 3]);
});
