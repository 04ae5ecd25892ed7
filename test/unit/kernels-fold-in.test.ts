// foldInTo (lower triangle, four items at a time) against a plain fold-in written here: the full
// f×f matrix an item at a time, solved by Gaussian elimination, at every size a user can have.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { foldInTo } from '../../native-free-kernels/fold-in.js';
import { choleskySolveTo } from '../../native-free-kernels/linalg.js';

const ITEMS = 3000;

// The fold-in as its doc comment states it, in f64, with nothing shared with the kernel.
function plainFoldIn(
  items: Uint32Array,
  values: Float32Array,
  y: Float32Array,
  gram: Float64Array,
  f: number,
  lambda: number,
  alpha: number,
): Float64Array {
  const a = Array.from({ length: f }, (_, r) =>
    Array.from({ length: f + 1 }, (_, d) => (d < f ? gram[r * f + d]! + (r === d ? lambda : 0) : 0)),
  );
  for (let k = 0; k < items.length; k++) {
    const c = 1 + alpha * values[k]!,
      at = items[k]! * f;
    for (let r = 0; r < f; r++) {
      a[r]![f]! += c * y[at + r]!;
      for (let d = 0; d < f; d++) a[r]![d]! += (c - 1) * y[at + r]! * y[at + d]!;
    }
  }
  for (let col = 0; col < f; col++) {
    let p = col;
    for (let r = col + 1; r < f; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[p]![col]!)) p = r;
    [a[col], a[p]] = [a[p]!, a[col]!];
    for (let r = col + 1; r < f; r++) {
      const m = a[r]![col]! / a[col]![col]!;
      for (let d = col; d <= f; d++) a[r]![d]! -= m * a[col]![d]!;
    }
  }
  const x = new Float64Array(f);
  for (let r = f - 1; r >= 0; r--) {
    let s = a[r]![f]!;
    for (let d = r + 1; d < f; d++) s -= a[r]![d]! * x[d]!;
    x[r] = s / a[r]![r]!;
  }
  return x;
}

function fullGram(y: Float32Array, n: number, f: number): Float64Array {
  const g = new Float64Array(f * f);
  for (let i = 0; i < n; i++) for (let r = 0; r < f; r++) for (let d = 0; d < f; d++) g[r * f + d]! += y[i * f + r]! * y[i * f + d]!;
  return g;
}

const relErr = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let num = 0,
    den = 0;
  for (let k = 0; k < a.length; k++) {
    num += (a[k]! - b[k]!) ** 2;
    den += b[k]! ** 2;
  }
  return Math.sqrt(num / den);
};

// Values as ratings (1–10), and below zero: c = 1 + alpha·value under 1, so (c − 1) y yᵀ is subtracted.
const valueKinds: [string, (rand: () => number) => number][] = [
  ['ratings 1–10', (rand) => 1 + Math.floor(rand() * 10)],
  ['negative values (c < 1)', (rand) => -rand() * 3.5],
  ['mixed signs', (rand) => rand() * 14 - 4],
];

for (const f of [7, 8, 32, 64, 100])
  t.test(`foldInTo matches the plain fold-in at f = ${f}`, async (t) => {
    const rand = mulberry32(100 + f);
    const y = Float32Array.from({ length: ITEMS * f }, () => (rand() - 0.5) * 0.6);
    const gram = fullGram(y, ITEMS, f);
    const scratch = new Float64Array(2 * f * f + 2 * f);
    const lambda = 20,
      alpha = 0.25;
    for (const n of [1, 2, 3, 17, 80, 2048]) {
      for (const [kind, value] of valueKinds) {
        let worst = 0;
        for (let trial = 0; trial < 3; trial++) {
          const items = Uint32Array.from({ length: n }, () => Math.floor(rand() * ITEMS));
          const values = Float32Array.from({ length: n }, () => value(rand));
          const fast = new Float32Array(f);
          scratch.fill(Number.NaN); // nothing is read before it is written
          foldInTo(fast, items, values, y, gram, f, lambda, alpha, scratch);
          worst = Math.max(worst, relErr(fast, plainFoldIn(items, values, y, gram, f, lambda, alpha)));
        }
        // f32 output: its rounding (≤ 6e-8 an entry) and the solve's f64 rounding, nothing more (4e-8 seen).
        t.ok(worst < 2e-7, `${n} items, ${kind}: worst relative difference ${worst.toExponential(2)}`);
      }
    }
  });

t.test('foldInTo takes λ by the count of items (frequency-scaled regularization)', async (t) => {
  const rand = mulberry32(7);
  const f = 16,
    y = Float32Array.from({ length: ITEMS * f }, () => (rand() - 0.5) * 0.6),
    gram = fullGram(y, ITEMS, f);
  const reg = { scale: 2, offset: 10, exponent: 0.5 };
  for (const n of [5, 300]) {
    const items = Uint32Array.from({ length: n }, () => Math.floor(rand() * ITEMS));
    const values = Float32Array.from({ length: n }, () => 1 + Math.floor(rand() * 10));
    const fast = new Float32Array(f);
    foldInTo(fast, items, values, y, gram, f, reg, 0.5, new Float64Array(2 * f * f + 2 * f));
    const err = relErr(fast, plainFoldIn(items, values, y, gram, f, 2 * Math.sqrt(n + 10), 0.5));
    t.ok(err < 1e-6, `${n} items: ${err.toExponential(2)}`);
  }
});

t.test('foldInTo checks every item, in a short last group too', async (t) => {
  const f = 4,
    y = new Float32Array(10 * f).fill(0.1),
    gram = fullGram(y, 10, f),
    s = new Float64Array(2 * f * f + 2 * f);
  for (const n of [1, 4, 6]) {
    const items = new Uint32Array(n);
    items[n - 1] = 10;
    t.throws(
      () => foldInTo(new Float32Array(f), items, new Float32Array(n), y, gram, f, 1, 1, s),
      /out of range/,
      `${n} items, the last out of range`,
    );
  }
});

t.test('choleskySolveTo reads only the lower triangle (foldInTo builds no more)', async (t) => {
  const rand = mulberry32(11);
  for (const f of [1, 5, 32]) {
    const y = Float32Array.from({ length: 3 * f * f }, () => rand() - 0.5);
    const a = fullGram(y, 3 * f, f);
    for (let k = 0; k < f; k++) a[k * f + k]! += 1;
    const b = Float64Array.from({ length: f }, () => rand());
    const whole = new Float64Array(f),
      lower = new Float64Array(f);
    choleskySolveTo(whole, a, b, f, new Float64Array(f * f));
    for (let r = 0; r < f; r++) for (let d = r + 1; d < f; d++) a[r * f + d] = Number.NaN;
    choleskySolveTo(lower, a, b, f, new Float64Array(f * f));
    t.same([...lower], [...whole], `f = ${f}: the same bits with NaN above the diagonal`);
  }
});
