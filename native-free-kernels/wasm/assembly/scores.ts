// WebAssembly SIMD twins of ../../scores.ts (AssemblyScript, compiled by `npm run build` to
// dist/native-free-kernels/wasm/scores.wasm). Arguments are byte offsets into the imported shared
// memory; ../../wasm-scores.ts lays the memory out and checks every argument before calling.
// Dots are summed in f32 (four f32x4 accumulators), not in f64 as dotAt does: scores agree with the
// TypeScript twins to about 1e-6 relative, and ranks only differ between near-ties.
import { hsum, tail } from './simd';
import { offer, sortHeap } from './heap';

export { userLists } from './user-lists';
export { rowCosines } from './row-cosines';

// Blocks of four rows share each load of the query (one query load per four multiply-adds); the
// rows are independent sums, so the four accumulators keep the adds from waiting on each other.
// f % 4 entries at the end of each row are summed one by one.

// The dot of query q with one row r (f entries): two accumulators, eight entries per step.
@inline function dot1(q: usize, r: usize, f: i32): f32 {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0);
  let k = 0;
  for (; k + 8 <= f; k += 8) {
    const o = <usize>k << 2;
    a0 = f32x4.add(a0, f32x4.mul(v128.load(q + o), v128.load(r + o)));
    a1 = f32x4.add(a1, f32x4.mul(v128.load(q + o, 16), v128.load(r + o, 16)));
  }
  if (k + 4 <= f) {
    const o = <usize>k << 2;
    a0 = f32x4.add(a0, f32x4.mul(v128.load(q + o), v128.load(r + o)));
    k += 4;
  }
  return hsum(f32x4.add(a0, a1)) + tail(q, r, k, f);
}

// dst[i] = q · row at rows + rowAt(i), i in [0, count), where the row of i starts at
// rows + stride · (positions ? positions[i] : i).
function dotsTo(dst: usize, q: usize, rows: usize, count: i32, f: i32, positions: usize): void {
  const stride = <usize>f << 2;
  const f4 = f & ~3;
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    let r0: usize, r1: usize, r2: usize, r3: usize;
    if (positions) {
      const p = positions + (<usize>i << 2);
      r0 = rows + <usize>load<u32>(p) * stride;
      r1 = rows + <usize>load<u32>(p, 4) * stride;
      r2 = rows + <usize>load<u32>(p, 8) * stride;
      r3 = rows + <usize>load<u32>(p, 12) * stride;
    } else {
      r0 = rows + <usize>i * stride;
      r1 = r0 + stride;
      r2 = r1 + stride;
      r3 = r2 + stride;
    }
    let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
    for (let k = 0; k < f4; k += 4) {
      const o = <usize>k << 2;
      const x = v128.load(q + o);
      a0 = f32x4.add(a0, f32x4.mul(x, v128.load(r0 + o)));
      a1 = f32x4.add(a1, f32x4.mul(x, v128.load(r1 + o)));
      a2 = f32x4.add(a2, f32x4.mul(x, v128.load(r2 + o)));
      a3 = f32x4.add(a3, f32x4.mul(x, v128.load(r3 + o)));
    }
    const d = dst + (<usize>i << 2);
    store<f32>(d, hsum(a0) + tail(q, r0, f4, f));
    store<f32>(d, hsum(a1) + tail(q, r1, f4, f), 4);
    store<f32>(d, hsum(a2) + tail(q, r2, f4, f), 8);
    store<f32>(d, hsum(a3) + tail(q, r3, f4, f), 12);
  }
  for (; i < count; i++) {
    const r = rows + <usize>(positions ? load<u32>(positions + (<usize>i << 2)) : <u32>i) * stride;
    store<f32>(dst + (<usize>i << 2), dot1(q, r, f));
  }
}

// cosineScoresTo: dst[i] = row item · row i / (norms[i] · norms[item]); NaN for i = item and rows
// of norm 0 (every row when the item has norm 0).
export function cosineScores(dst: usize, rows: usize, norms: usize, n: i32, f: i32, item: i32): void {
  const nx = load<f32>(norms + (<usize>item << 2));
  dotsTo(dst, rows + <usize>item * (<usize>f << 2), rows, n, f, 0);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    const ni = load<f32>(norms + o);
    store<f32>(dst + o, ni == 0 || nx == 0 || i == item ? NaN : load<f32>(dst + o) / (ni * nx));
  }
}

// groupScoresTo over queries (f entries each, one after the other from `queries`), in chunks so
// that the caller's scratch holds a bounded number of queries: groupFold adds `count` queries' dots
// to dst (sum) and keeps their lowest in `low` (0: one query in all, no lowest kept), starting
// afresh when `first`. Each block of four rows is read from memory once for all the queries, not
// once per query. groupFinish blends: dst[i] = (1 − consensus) · sum / total + consensus · low[i],
// NaN for rows of norm 0.
export function groupFold(dst: usize, low: usize, queries: usize, count: i32, rows: usize, n: i32, f: i32, first: bool): void {
  const stride = <usize>f << 2;
  const f4 = f & ~3;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const r0 = rows + <usize>i * stride, r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride;
    const d = dst + (<usize>i << 2), l = low + (<usize>i << 2);
    let s0: f32 = 0, s1: f32 = 0, s2: f32 = 0, s3: f32 = 0;
    let l0: f32 = Infinity, l1: f32 = Infinity, l2: f32 = Infinity, l3: f32 = Infinity;
    if (!first) {
      s0 = load<f32>(d); s1 = load<f32>(d, 4); s2 = load<f32>(d, 8); s3 = load<f32>(d, 12);
      if (low) {
        l0 = load<f32>(l); l1 = load<f32>(l, 4); l2 = load<f32>(l, 8); l3 = load<f32>(l, 12);
      }
    }
    for (let q = 0; q < count; q++) {
      const x = queries + <usize>q * stride;
      let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
      for (let k = 0; k < f4; k += 4) {
        const o = <usize>k << 2;
        const v = v128.load(x + o);
        a0 = f32x4.add(a0, f32x4.mul(v, v128.load(r0 + o)));
        a1 = f32x4.add(a1, f32x4.mul(v, v128.load(r1 + o)));
        a2 = f32x4.add(a2, f32x4.mul(v, v128.load(r2 + o)));
        a3 = f32x4.add(a3, f32x4.mul(v, v128.load(r3 + o)));
      }
      const d0 = hsum(a0) + tail(x, r0, f4, f), d1 = hsum(a1) + tail(x, r1, f4, f);
      const d2 = hsum(a2) + tail(x, r2, f4, f), d3 = hsum(a3) + tail(x, r3, f4, f);
      s0 += d0; s1 += d1; s2 += d2; s3 += d3;
      if (d0 < l0) l0 = d0;
      if (d1 < l1) l1 = d1;
      if (d2 < l2) l2 = d2;
      if (d3 < l3) l3 = d3;
    }
    store<f32>(d, s0); store<f32>(d, s1, 4); store<f32>(d, s2, 8); store<f32>(d, s3, 12);
    if (low) {
      store<f32>(l, l0); store<f32>(l, l1, 4); store<f32>(l, l2, 8); store<f32>(l, l3, 12);
    }
  }
  for (; i < n; i++) {
    const r = rows + <usize>i * stride;
    const d = dst + (<usize>i << 2), l = low + (<usize>i << 2);
    let s: f32 = first ? 0 : load<f32>(d);
    let lo: f32 = first || !low ? Infinity : load<f32>(l);
    for (let q = 0; q < count; q++) {
      const x = dot1(queries + <usize>q * stride, r, f);
      s += x;
      if (x < lo) lo = x;
    }
    store<f32>(d, s);
    if (low) store<f32>(l, lo);
  }
}

export function groupFinish(dst: usize, low: usize, norms: usize, n: i32, total: i32, consensus: f32): void {
  if (low) {
    const mean = (<f32>1 - consensus) / <f32>total;
    for (let i = 0; i < n; i++) {
      const o = <usize>i << 2;
      store<f32>(dst + o, mean * load<f32>(dst + o) + consensus * load<f32>(low + o));
    }
  } else if (consensus != 0) {
    // One query: its mean and its lowest are the same dot.
    for (let i = 0; i < n; i++) {
      const o = <usize>i << 2;
      const d = load<f32>(dst + o);
      store<f32>(dst + o, (<f32>1 - consensus) * d + consensus * d);
    }
  }
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 2;
    if (load<f32>(norms + o) == 0) store<f32>(dst + o, NaN);
  }
}

// positionScoresTo: dst[c] = query · row positions[c] of `rows`; NaN where members[positions[c]] = skip.
export function positionScores(dst: usize, query: usize, rows: usize, f: i32, members: usize, positions: usize, count: i32, skip: u32): void {
  dotsTo(dst, query, rows, count, f, positions);
  for (let c = 0; c < count; c++) {
    const o = <usize>c << 2;
    if (load<u32>(members + (<usize>load<u32>(positions + o) << 2)) == skip) store<f32>(dst + o, NaN);
  }
}

// rowDotsTo: dst[c] = query · row rows[c] of the item rows, c < count (a session's candidates).
export function rowDots(dst: usize, query: usize, rows: usize, f: i32, items: usize, count: i32): void {
  dotsTo(dst, query, rows, count, f, items);
}

// boundedTopTo of ../../bounded-top.ts (its TypeScript twin) over the rows in norm order, the
// selection here too: a session's scan offered ~150 dots a request to a heap in JavaScript, one
// call and one JavaScript loop per block. The same blocks, the same early stop and the same heap
// (weakest at the root, ties by row) as the twin, so the same items from the same dots.
// items/scores (u32/f32) hold a heap of `filled` on entry and the best first on return; `dots` is
// scratch for a block; `count` rows of `rows`/`norms`/`order` have norm > 0. Returns how many are
// kept, or -1 when maxRows rows were scored without being sure of the top (unless partial).

const SLACK: f64 = 1 + 1e-4; // as bounded-top.ts
const FIRST_BLOCK = 64, LAST_BLOCK = 4096;

// One row's dot as dotsTo sums a row of a block of four (one accumulator, four entries a step), so
// a row scored alone scores what the whole block would have given it.
@inline function dotAsBlock(q: usize, r: usize, f: i32, f4: i32): f32 {
  let a = f32x4.splat(0);
  for (let k = 0; k < f4; k += 4) {
    const o = <usize>k << 2;
    a = f32x4.add(a, f32x4.mul(v128.load(q + o), v128.load(r + o)));
  }
  return hsum(a) + tail(q, r, f4, f);
}

// The int8 rows of ../../quantized-rows.ts (its twin): the query as int16 into qq (stride entries),
// its scale and rounding error in qScale/qError; false when it bounds nothing (zeros, NaN, ∞).
const QUERY_STEPS: f64 = 32767;
let qScale: f64 = 0, qError: f64 = 0;
function quantizeQuery(qq: usize, query: usize, f: i32, stride: i32): bool {
  let max: f64 = 0;
  for (let a = 0; a < f; a++) {
    const x = abs<f64>(<f64>load<f32>(query + (<usize>a << 2)));
    if (x > max) max = x;
  }
  if (!(max > 0 && max < Infinity)) return false;
  const inverse = QUERY_STEPS / max;
  qScale = max / QUERY_STEPS;
  let e2: f64 = 0;
  for (let a = 0; a < f; a++) {
    const x = <f64>load<f32>(query + (<usize>a << 2));
    let r = floor(x * inverse + 0.5);
    if (r > QUERY_STEPS) r = QUERY_STEPS;
    if (r < -QUERY_STEPS) r = -QUERY_STEPS;
    store<i16>(qq + (<usize>a << 1), <i16>(<i32>r));
    const d = x - r * qScale;
    e2 += d * d;
  }
  for (let a = f; a < stride; a++) store<i16>(qq + (<usize>a << 1), 0);
  qError = sqrt<f64>(e2);
  return true;
}

// Rows exactly scored by the last boundedTop of this thread (benchmarks read it).
export let rescored: i32 = 0;

// Rows a pruned scan bounds before it scores those left: their exact dots are then independent
// reads (rows scattered through the f32 rows), which the processor overlaps, rather than each
// waiting for the heap's answer on the one before.
const CHUNK = 64;

// quantized: the first rows of the norm order that have int8 rows (qrows, quantStride bytes each;
// qscales, qerrors, qlengths: f32 each), 0 for none; qq: scratch for the int16 query (quantStride
// i16). A block within them scores exactly only the rows whose bound reaches the k-th best so far:
// the bounds of four rows at once, in f32 (the rows' terms leave room for its rounding), and most
// groups of four end at one comparison.
export function boundedTop(items: usize, scores: usize, k: i32, filled: i32, query: usize, queryNorm: f64, rows: usize, norms: usize, order: usize, count: i32, f: i32, maxRows: i32, partial: bool, dots: usize, qrows: usize, qscales: usize, qerrors: usize, qlengths: usize, quantized: i32, qq: usize): i32 {
  rescored = 0;
  if (k == 0) return 0;
  const stride = <usize>f << 2;
  const qstride = (f + 15) & ~15, f4 = f & ~3;
  // The pruned scan's scratch after the int16 query: CHUNK positions, CHUNK dots.
  const left = qq + ((<usize>qstride << 1) + 15 & ~15), leftDots = left + (CHUNK << 2);
  if (quantized > 0 && !quantizeQuery(qq, query, f, qstride)) quantized = 0;
  // Rounded up to f32, so the bound only grows.
  const up: f64 = 1 + 1.0 / 1048576;
  const scaleV = f32x4.splat(<f32>(qScale * up)), normV = f32x4.splat(<f32>(queryNorm * up)), errorV = f32x4.splat(<f32>(qError * up));
  let size = filled, p = 0, block = k > FIRST_BLOCK ? k : FIRST_BLOCK;
  while (p < count) {
    if (size == k && <f64>load<f32>(scores) >= queryNorm * <f64>load<f32>(norms + (<usize>p << 2)) * SLACK) break;
    if (p >= maxRows) {
      if (partial) break;
      return -1;
    }
    let n = block < count - p ? block : count - p;
    if (partial && maxRows - p < n) n = maxRows - p;
    if (p + n <= quantized) {
      // Rows of a block as dotsTo would sum them: blocks of four, the last n % 4 one by one.
      const n4 = n & ~3;
      for (let from = 0; from < n; from += CHUNK) {
        const to = n - from < CHUNK ? n : from + CHUNK;
        const all = size < k;
        const root = f32x4.splat(load<f32>(scores));
        let found = 0;
        for (let c = from; c < to; c += 4) {
          const at = p + c;
          const m = to - c < 4 ? to - c : 4;
          if (all) {
            for (let j = 0; j < m; j++) store<u32>(left + (<usize>(found++) << 2), c + j);
            continue;
          }
          // Rows past the block (m < 4) are read but never scored: their memory lies within the
          // int8 rows and terms or the 16 bytes after them.
          const r0 = qrows + <usize>at * <usize>qstride, r1 = r0 + <usize>qstride, r2 = r1 + <usize>qstride, r3 = r2 + <usize>qstride;
          let a0 = i32x4.splat(0), a1 = i32x4.splat(0), a2 = i32x4.splat(0), a3 = i32x4.splat(0);
          for (let j = 0; j < qstride; j += 8) {
            const x = v128.load(qq + (<usize>j << 1));
            a0 = i32x4.add(a0, i32x4.dot_i16x8_s(x, v128.load8x8_s(r0 + <usize>j)));
            a1 = i32x4.add(a1, i32x4.dot_i16x8_s(x, v128.load8x8_s(r1 + <usize>j)));
            a2 = i32x4.add(a2, i32x4.dot_i16x8_s(x, v128.load8x8_s(r2 + <usize>j)));
            a3 = i32x4.add(a3, i32x4.dot_i16x8_s(x, v128.load8x8_s(r3 + <usize>j)));
          }
          // The four sums side by side: lanes (0 + 2, 1 + 3) of each, then of each pair.
          const s01 = i32x4.add(i32x4.shuffle(a0, a1, 0, 4, 1, 5), i32x4.shuffle(a0, a1, 2, 6, 3, 7));
          const s23 = i32x4.add(i32x4.shuffle(a2, a3, 0, 4, 1, 5), i32x4.shuffle(a2, a3, 2, 6, 3, 7));
          const d = f32x4.convert_i32x4_s(i32x4.add(i32x4.shuffle(s01, s23, 0, 1, 4, 5), i32x4.shuffle(s01, s23, 2, 3, 6, 7)));
          const o = <usize>at << 2;
          const bound = f32x4.add(f32x4.add(f32x4.mul(f32x4.mul(d, scaleV), v128.load(qscales + o)), f32x4.mul(normV, v128.load(qerrors + o))), f32x4.mul(errorV, v128.load(qlengths + o)));
          // Not below the k-th best (NaN: a row that bounds nothing is scored).
          let reach = i32x4.bitmask(v128.not(f32x4.lt(bound, root))) & ((1 << m) - 1);
          while (reach != 0) {
            const j = ctz(reach);
            store<u32>(left + (<usize>(found++) << 2), c + j);
            reach &= reach - 1;
          }
        }
        if (found << 2 > to - from) {
          // Many left (the heap not yet full, or a query many rows suit): the chunk's rows in one
          // pass, as dotsTo sums them, cost less than as many scattered reads. The chunk starts at a
          // multiple of four from the block's start and ends where it ends, so each row's sum is
          // the one the scan of the block would give.
          dotsTo(leftDots, query, rows + <usize>(p + from) * stride, to - from, f, 0);
          rescored += to - from;
          for (let t = 0; t < found; t++) {
            const c = load<u32>(left + (<usize>t << 2));
            size = offer(items, scores, size, k, load<f32>(leftDots + (<usize>(c - from) << 2)), load<u32>(order + (<usize>(p + c) << 2)));
          }
          continue;
        }
        for (let t = 0; t < found; t++) {
          const c = load<u32>(left + (<usize>t << 2));
          const r = rows + <usize>(p + c) * stride;
          store<f32>(leftDots + (<usize>t << 2), c < <u32>n4 ? dotAsBlock(query, r, f, f4) : dot1(query, r, f));
        }
        rescored += found;
        for (let t = 0; t < found; t++) {
          const c = load<u32>(left + (<usize>t << 2));
          size = offer(items, scores, size, k, load<f32>(leftDots + (<usize>t << 2)), load<u32>(order + (<usize>(p + c) << 2)));
        }
      }
    } else {
      dotsTo(dots, query, rows + <usize>p * stride, n, f, 0);
      rescored += n;
      for (let c = 0; c < n; c++) size = offer(items, scores, size, k, load<f32>(dots + (<usize>c << 2)), load<u32>(order + (<usize>(p + c) << 2)));
    }
    p += n;
    block = 2 * block < LAST_BLOCK ? 2 * block : LAST_BLOCK;
  }
  sortHeap(items, scores, size);
  return size;
}
