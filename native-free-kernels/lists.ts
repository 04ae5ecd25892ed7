// Precomputed recommendation lists, written at the end of training: each item's most similar items
// and each user's best unrated items. Query rows go through in blocks, so each item row is read from
// memory once per block instead of once per query, and each pass of the inner loop takes 4 query
// rows against 2 item rows, sharing its loads (bench/kernels/lists-speed.ts: about twice the
// multiply-adds per second of one query at a time through dotAt).
import { checkCounts, checkItemLists, checkNormOrder, checkUserLists } from './checks.js';
import { heapOffer, heapSortTo, topKTo } from './top-k.js';

const EMPTY = 0xffffffff;

// Query rows in one pass: 4 × 2 sums and the 6 values loaded for them fit the 16 float registers
// of x86-64; 4 × 4 or 8 × 2 sums spill and measured no faster.
const GROUP = 4;

// A tile of item rows is about 16 KB of floats, so it stays in L1 while each group of a larger block
// passes over it.
const TILE_FLOATS = 4096;

/**
 * Query rows per block by default. 8 and 16 (groups of 4 over tiles of items) measured within a few
 * per cent of 4, inside the noise of this shared machine (bench/kernels/lists-speed.ts): in V8 the
 * arithmetic, not memory, is the bound, so the default is the block needing the least scratch.
 */
export const LIST_BLOCK = 4;

/**
 * Floats of scratch the kernels need for `count` candidate items, `f` factors, lists of length `n`
 * and `block` query rows at a time: block·count scores, block·f query rows, block query norms and n
 * scores for topKTo's heap. For 100,000 items, f = 32, n = 128, block 4: 400,260 floats (1.6 MB).
 */
export function listsScratchLength(count: number, f: number, n: number, block = LIST_BLOCK): number {
  return block * (count + f + 1) + n;
}

// Where each part lives in the caller's scratch (see listsScratchLength).
interface Layout {
  rowsAt: number; // block query rows of f floats, padded with zero rows to a whole group
  normsAt: number; // the query rows' norms (cosine only)
  heap: Float32Array; // n
}

function layoutOf(scratch: Float32Array, count: number, f: number, n: number, block: number): Layout {
  const rowsAt = block * count,
    normsAt = rowsAt + block * f,
    heapAt = normsAt + block;
  return { rowsAt, normsAt, heap: scratch.subarray(heapAt, heapAt + n) };
}

function checkBlock(name: string, block: number): void {
  if (!(Number.isInteger(block) && block > 0 && block % GROUP === 0))
    throw new Error(`${name}: block must be a positive multiple of ${GROUP}, got ${block}`);
}

function checkScratch(name: string, scratch: Float32Array, count: number, f: number, n: number, block: number): void {
  const need = listsScratchLength(count, f, n, block);
  if (scratch.length < need) throw new Error(`${name}: scratch length ${scratch.length} < ${need} (listsScratchLength)`);
}

/**
 * For GROUP query rows (s[x + r·f ..), r < 4) and item rows j in [j0, j1) of `rows`:
 * s[at + r·count + j] = their dot product, summed in f64 in column order in one sum (as the twins'
 * plain loops), divided by (s[m + r] · norms[j]) when `cosine` (norm 0 is dealt with by the caller).
 */
function groupDotsTo(
  s: Float32Array,
  at: number,
  count: number,
  x: number,
  m: number,
  rows: Float32Array,
  norms: Float32Array,
  f: number,
  j0: number,
  j1: number,
  cosine: boolean,
): void {
  const x1 = x + f,
    x2 = x1 + f,
    x3 = x2 + f;
  const o1 = at + count,
    o2 = o1 + count,
    o3 = o2 + count;
  const m0 = s[m]!,
    m1 = s[m + 1]!,
    m2 = s[m + 2]!,
    m3 = s[m + 3]!;
  let j = j0;
  for (; j + 2 <= j1; j += 2) {
    const y = j * f,
      z = y + f;
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0,
      b0 = 0,
      b1 = 0,
      b2 = 0,
      b3 = 0;
    for (let k = 0; k < f; k++) {
      const v = rows[y + k]!,
        w = rows[z + k]!;
      const q0 = s[x + k]!,
        q1 = s[x1 + k]!,
        q2 = s[x2 + k]!,
        q3 = s[x3 + k]!;
      a0 += q0 * v;
      a1 += q1 * v;
      a2 += q2 * v;
      a3 += q3 * v;
      b0 += q0 * w;
      b1 += q1 * w;
      b2 += q2 * w;
      b3 += q3 * w;
    }
    if (cosine) {
      const nv = norms[j]!,
        nw = norms[j + 1]!;
      s[at + j] = a0 / (m0 * nv);
      s[o1 + j] = a1 / (m1 * nv);
      s[o2 + j] = a2 / (m2 * nv);
      s[o3 + j] = a3 / (m3 * nv);
      s[at + j + 1] = b0 / (m0 * nw);
      s[o1 + j + 1] = b1 / (m1 * nw);
      s[o2 + j + 1] = b2 / (m2 * nw);
      s[o3 + j + 1] = b3 / (m3 * nw);
    } else {
      s[at + j] = a0;
      s[o1 + j] = a1;
      s[o2 + j] = a2;
      s[o3 + j] = a3;
      s[at + j + 1] = b0;
      s[o1 + j + 1] = b1;
      s[o2 + j + 1] = b2;
      s[o3 + j + 1] = b3;
    }
  }
  if (j < j1) {
    const y = j * f;
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    for (let k = 0; k < f; k++) {
      const v = rows[y + k]!;
      a0 += s[x + k]! * v;
      a1 += s[x1 + k]! * v;
      a2 += s[x2 + k]! * v;
      a3 += s[x3 + k]! * v;
    }
    const nv = cosine ? norms[j]! : 1;
    s[at + j] = cosine ? a0 / (m0 * nv) : a0;
    s[o1 + j] = cosine ? a1 / (m1 * nv) : a1;
    s[o2 + j] = cosine ? a2 / (m2 * nv) : a2;
    s[o3 + j] = cosine ? a3 / (m3 * nv) : a3;
  }
}

// scratch[at .. at+f) = src[from .. from+f).
function copyRow(s: Float32Array, at: number, src: Float32Array, from: number, f: number): void {
  for (let k = 0; k < f; k++) s[at + k] = src[from + k]!;
}

/**
 * scratch[r·count + j] = the score of query row r (r < used, copied into the scratch) against row j
 * of `rows`: their dot, or with `cosine` their cosine similarity (the query norms in the scratch);
 * NaN for rows of norm 0. Query rows beyond `used` are padded with zeros to a whole group and their
 * scores left unused.
 */
function blockScoresTo(
  s: Float32Array,
  lay: Layout,
  used: number,
  rows: Float32Array,
  norms: Float32Array,
  count: number,
  f: number,
  cosine: boolean,
): void {
  const groups = Math.ceil(used / GROUP);
  s.fill(0, lay.rowsAt + used * f, lay.rowsAt + groups * GROUP * f);
  const tile = Math.max(2, Math.floor(TILE_FLOATS / Math.max(1, f)));
  for (let j0 = 0; j0 < count; j0 += tile) {
    const j1 = Math.min(count, j0 + tile);
    for (let g = 0; g < groups; g++) {
      const r = g * GROUP;
      groupDotsTo(s, r * count, count, lay.rowsAt + r * f, lay.normsAt + r, rows, norms, f, j0, j1, cosine);
    }
    // While the tile's scores are still in cache.
    for (let j = j0; j < j1; j++) if (norms[j] === 0) for (let r = 0; r < used; r++) s[r * count + j] = NaN;
  }
}

// dst[row·n ..) = the top n of scratch[r·count ..) (topKTo's order), unfilled slots EMPTY.
function selectTo(dst: Uint32Array, n: number, row: number, s: Float32Array, r: number, count: number, heap: Float32Array): void {
  const out = dst.subarray(row * n, row * n + n);
  const got = topKTo(out, heap, s.subarray(r * count, r * count + count), count, n);
  out.fill(EMPTY, got);
}

/**
 * For each item row i in [rowStart, rowEnd): dst[i·n .. i·n+n) = the n items j ≠ i with the highest
 * cosine similarity dot(row i, row j) / (norms[i] · norms[j]) (the dot summed in f64 in column order,
 * the score rounded to f32), by score descending then index ascending (topKTo's order); unfilled
 * slots 0xffffffff. Items of norm 0 are never listed and get an empty list. dst is the whole
 * count × n buffer; only the rows in the range are written, so workers can share one buffer.
 * scratch: listsScratchLength(count, f, n, block) floats. block: query rows at a time, a positive
 * multiple of 4 (LIST_BLOCK unless measuring).
 */
export function itemListsTo(
  dst: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  count: number,
  f: number,
  rowStart: number,
  rowEnd: number,
  scratch: Float32Array,
  block = LIST_BLOCK,
): void {
  const name = 'itemListsTo';
  checkItemLists(name, dst, n, factors, norms, count, f, rowStart, rowEnd);
  checkBlock(name, block);
  checkScratch(name, scratch, count, f, n, block);
  if (n === 0) return;

  const lay = layoutOf(scratch, count, f, n, block);
  let i = rowStart;
  while (i < rowEnd) {
    // The block's queries are the next `block` rows of norm ≠ 0 (rows of norm 0 among them are
    // skipped here and given an empty list below), so every query scored is one that is listed.
    const i0 = i;
    let used = 0;
    for (; i < rowEnd && used < block; i++) {
      if (norms[i] === 0) continue;
      copyRow(scratch, lay.rowsAt + used * f, factors, i * f, f);
      scratch[lay.normsAt + used] = norms[i]!;
      used++;
    }
    if (used > 0) blockScoresTo(scratch, lay, used, factors, norms, count, f, true);
    let r = 0;
    for (let row = i0; row < i; row++) {
      if (norms[row] === 0) {
        dst.fill(EMPTY, row * n, row * n + n);
        continue;
      }
      scratch[r * count + row] = NaN; // never its own neighbour
      selectTo(dst, n, row, scratch, r, count, lay.heap);
      r++;
    }
  }
}

/**
 * Item rows in descending order of norm, for rankings by dot product that stop early: against a
 * query x, an item of norm ν scores at most |x|·ν (Cauchy–Schwarz), so once that bound falls below
 * the lowest of the n best scores found, no later item can enter them. Trained factors make this
 * pay: popular items have long rows and take most users' best places (on the synthetic catalogue of
 * bench/lib/synthetic.ts the median user's 128 best are settled within the longest fifth).
 */
export interface NormOrder {
  items: number; // rows of the factor matrix it was made from
  count: number; // items of norm > 0, the first `count` of order
  order: Uint32Array; // items by norm descending (ties: the lower item first)
  norms: Float32Array; // their norms, in that order
  rows: Float32Array; // their factor rows, in that order (count × f)
}

export function normOrderOf(factors: Float32Array, norms: Float32Array, items: number, f: number): NormOrder {
  checkCounts('normOrderOf', { items, f });
  // Shared memory: the threads listing users in a training share one copy.
  const order = new Uint32Array(new SharedArrayBuffer(items * 4));
  let count = 0;
  for (let i = 0; i < items; i++) if (norms[i]! > 0) count++;
  const sorted = new Float32Array(new SharedArrayBuffer(count * 4)),
    rows = new Float32Array(new SharedArrayBuffer(count * f * 4));
  normOrderTo(order, sorted, rows, factors, norms, items, f);
  return { items, count, order: order.subarray(0, count), norms: sorted, rows };
}

/**
 * normOrderOf into the caller's arrays (order: items; sorted: at least the count of norm > 0;
 * rows: that count × f), e.g. memory the score kernels share; returns that count.
 */
export function normOrderTo(
  order: Uint32Array,
  sorted: Float32Array,
  rows: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  items: number,
  f: number,
): number {
  const name = 'normOrderTo';
  checkCounts(name, { items, f });
  if (factors.length !== items * f) throw new Error(`${name}: factors length ${factors.length}, expected items*f = ${items * f}`);
  if (norms.length !== items || order.length < items)
    throw new Error(`${name}: norms length ${norms.length} and order length ${order.length}, expected items = ${items}`);
  let count = 0;
  for (let i = 0; i < items; i++) if (norms[i]! > 0) order[count++] = i;
  if (sorted.length < count || rows.length < count * f)
    throw new Error(`${name}: room for ${sorted.length} norms and ${rows.length / f} rows, ${count} needed`);
  order.subarray(0, count).sort((a, b) => norms[b]! - norms[a]! || a - b);
  for (let p = 0; p < count; p++) {
    const i = order[p]!;
    sorted[p] = norms[i]!;
    rows.set(factors.subarray(i * f, (i + 1) * f), p * f);
  }
  return count;
}

// Item rows scored per pass of a block before the stopping bound is checked again: small enough
// that a block stops soon after its users are settled, large enough that the check is noise.
const SCAN_TILE = 256;

// An item's bound |x|·ν is relaxed by this much against rounding (of the norms, and of the scores
// to f32), so a block stops only when no later item can reach, or tie with, the weakest kept.
const BOUND_SLACK = 1 + 1e-5;

/** Floats of scratch userListsTo needs for `f` factors, lists of n and `block` users at a time. */
export const userListsScratchLength = (f: number, n: number, block = LIST_BLOCK): number => block * (SCAN_TILE + f + 1 + n);

/**
 * The TypeScript twin of wasm-user-lists.ts, which lists users wherever WebAssembly SIMD runs (in
 * f32, as serving ranks a user's later pages), and the fallback where it cannot.
 * For each user row u in `users` (any order, any subset): dst[u·n .. u·n+n) = the n items with the
 * highest dot(userFactors row u, item's factor row) (summed in f64 in column order, rounded to f32),
 * by score descending then item ascending, leaving out items of norm 0 and the items u rated,
 * ratedIndices[ratedIndptr[u] .. ratedIndptr[u+1]) (none when u+1 ≥ ratedIndptr.length); unfilled
 * slots 0xffffffff. Exact: items are scanned longest row first (byNorm) and a block of users stops
 * once each user's n best are settled (see NormOrder). dst is the whole userRows × n buffer; only
 * the listed users' rows are written. packed: dst holds users.length × n instead, users[p]'s list
 * at p·n (a training's lists: a model holds lists for its listed users only). scratch:
 * userListsScratchLength(f, n, block) floats. block: users at a time, a positive multiple of 4 up to 32 (LIST_BLOCK unless measuring).
 */
export function userListsTo(
  dst: Uint32Array,
  n: number,
  users: Uint32Array,
  userFactors: Float32Array,
  userRows: number,
  byNorm: NormOrder,
  f: number,
  ratedIndptr: Uint32Array,
  ratedIndices: Uint32Array,
  scratch: Float32Array,
  block = LIST_BLOCK,
  packed = false,
): void {
  const name = 'userListsTo';
  checkBlock(name, block);
  if (block > 32) throw new Error(`${name}: block must be at most 32, got ${block}`);
  const { items, count, order, norms, rows } = byNorm;
  checkNormOrder(name, byNorm, f);
  checkUserLists(name, dst, n, users, userFactors, userRows, items, f, ratedIndptr, ratedIndices, packed);
  const need = userListsScratchLength(f, n, block);
  if (scratch.length < need) throw new Error(`${name}: scratch length ${scratch.length} < ${need} (userListsScratchLength)`);
  if (n === 0 || users.length === 0) return;

  const T = SCAN_TILE,
    rowsAt = block * T,
    normsAt = rowsAt + block * f,
    heapsAt = normsAt + block;
  const heapItems = new Uint32Array(block * n),
    sizes = new Uint32Array(block),
    lengths = new Float64Array(block);
  const rated = new Uint32Array(items); // bit r: user r of the block rated the item
  const done = new Uint8Array(block);
  const ratedOf = (u: number): [number, number] => (u + 1 < ratedIndptr.length ? [ratedIndptr[u]!, ratedIndptr[u + 1]!] : [0, 0]);
  for (let p0 = 0; p0 < users.length; p0 += block) {
    const used = Math.min(block, users.length - p0);
    const groups = Math.ceil(used / GROUP);
    scratch.fill(0, rowsAt + used * f, rowsAt + groups * GROUP * f);
    done.fill(1); // lanes past `used` pad the last group
    for (let r = 0; r < used; r++) {
      const u = users[p0 + r]!;
      copyRow(scratch, rowsAt + r * f, userFactors, u * f, f);
      let ss = 0;
      for (let k = 0; k < f; k++) ss += userFactors[u * f + k]! * userFactors[u * f + k]!;
      lengths[r] = Math.sqrt(ss);
      sizes[r] = 0;
      done[r] = 0;
      const [a, b] = ratedOf(u);
      for (let c = a; c < b; c++) rated[ratedIndices[c]!]! |= 1 << r;
    }
    let live = used;
    for (let j0 = 0; j0 < count; j0 += T) {
      const bound = norms[j0]! * BOUND_SLACK;
      for (let r = 0; r < used; r++) {
        if (done[r] === 0 && sizes[r] === n && lengths[r]! * bound < scratch[heapsAt + r * n]!) {
          done[r] = 1;
          live--;
        }
      }
      if (live === 0) break;
      const j1 = Math.min(count, j0 + T);
      for (let g = 0; g < groups; g++) {
        const r = g * GROUP;
        if (done[r] === 1 && done[r + 1] === 1 && done[r + 2] === 1 && done[r + 3] === 1) continue;
        groupDotsTo(scratch, r * T - j0, T, rowsAt + r * f, normsAt + r, rows, norms, f, j0, j1, false);
      }
      for (let r = 0; r < used; r++) {
        if (done[r] === 1) continue;
        const bit = 1 << r,
          at = r * T - j0;
        const idx = heapItems.subarray(r * n, r * n + n),
          best = scratch.subarray(heapsAt + r * n, heapsAt + r * n + n);
        let size = sizes[r]!;
        for (let j = j0; j < j1; j++) {
          const item = order[j]!;
          if ((rated[item]! & bit) === 0) size = heapOffer(idx, best, size, n, scratch[at + j]!, item);
        }
        sizes[r] = size;
      }
    }
    for (let r = 0; r < used; r++) {
      const u = users[p0 + r]!,
        size = sizes[r]!;
      const idx = heapItems.subarray(r * n, r * n + n);
      heapSortTo(idx, scratch.subarray(heapsAt + r * n, heapsAt + r * n + n), size);
      const at = (packed ? p0 + r : u) * n;
      dst.set(idx.subarray(0, size), at);
      dst.fill(EMPTY, at + size, at + n);
      const [a, b] = ratedOf(u);
      for (let c = a; c < b; c++) rated[ratedIndices[c]!] = 0;
    }
  }
}
