// Precomputed recommendation lists, written at the end of training: each item's most similar items
// and each user's best unrated items. Query rows go through in blocks, so each item row is read from
// memory once per block instead of once per query, and each pass of the inner loop takes 4 query
// rows against 2 item rows, sharing its loads (bench/kernels/lists-speed.ts: about twice the
// multiply-adds per second of one query at a time through dotAt).
import { topKTo } from './top-k.js';

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
  const rowsAt = block * count, normsAt = rowsAt + block * f, heapAt = normsAt + block;
  return { rowsAt, normsAt, heap: scratch.subarray(heapAt, heapAt + n) };
}

function checkCounts(name: string, values: Record<string, number>): void {
  for (const [key, v] of Object.entries(values)) if (!(Number.isInteger(v) && v >= 0)) throw new Error(`${name}: ${key} must be an integer ≥ 0, got ${v}`);
}

function checkBlock(name: string, block: number): void {
  if (!(Number.isInteger(block) && block > 0 && block % GROUP === 0)) throw new Error(`${name}: block must be a positive multiple of ${GROUP}, got ${block}`);
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
function groupDotsTo(s: Float32Array, at: number, count: number, x: number, m: number, rows: Float32Array, norms: Float32Array, f: number, j0: number, j1: number, cosine: boolean): void {
  const x1 = x + f, x2 = x1 + f, x3 = x2 + f;
  const o1 = at + count, o2 = o1 + count, o3 = o2 + count;
  const m0 = s[m]!, m1 = s[m + 1]!, m2 = s[m + 2]!, m3 = s[m + 3]!;
  let j = j0;
  for (; j + 2 <= j1; j += 2) {
    const y = j * f, z = y + f;
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    for (let k = 0; k < f; k++) {
      const v = rows[y + k]!, w = rows[z + k]!;
      const q0 = s[x + k]!, q1 = s[x1 + k]!, q2 = s[x2 + k]!, q3 = s[x3 + k]!;
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
      const nv = norms[j]!, nw = norms[j + 1]!;
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
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
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
function blockScoresTo(s: Float32Array, lay: Layout, used: number, rows: Float32Array, norms: Float32Array, count: number, f: number, cosine: boolean): void {
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
  checkCounts(name, { n, count, f });
  checkBlock(name, block);
  if (factors.length !== count * f) throw new Error(`${name}: factors length ${factors.length}, expected count*f = ${count * f}`);
  if (norms.length !== count) throw new Error(`${name}: norms length ${norms.length}, expected count = ${count}`);
  if (dst.length !== count * n) throw new Error(`${name}: dst length ${dst.length}, expected count*n = ${count * n}`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= count)) {
    throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${count})`);
  }
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
 * For each user row u in `users` (any order, any subset): dst[u·n .. u·n+n) = the n items with the
 * highest dot(userFactors row u, itemFactors row i) (summed in f64 in column order, rounded to f32),
 * by score descending then index ascending (topKTo's order), leaving out items of itemNorms 0 and
 * the items u rated, ratedIndices[ratedIndptr[u] .. ratedIndptr[u+1]) (none when u+1 ≥
 * ratedIndptr.length); unfilled slots 0xffffffff. A user whose factor row is all zeros scores 0 on
 * every item, so gets the lowest-numbered items they may be given: whether to list such users at
 * all is the caller's choice. dst is the whole userRows × n buffer; only the listed users' rows are
 * written. scratch: listsScratchLength(items, f, n, block) floats. block: users at a time, a
 * positive multiple of 4 (LIST_BLOCK unless measuring).
 */
export function userListsTo(
  dst: Uint32Array,
  n: number,
  users: Uint32Array,
  userFactors: Float32Array,
  userRows: number,
  itemFactors: Float32Array,
  itemNorms: Float32Array,
  items: number,
  f: number,
  ratedIndptr: Uint32Array,
  ratedIndices: Uint32Array,
  scratch: Float32Array,
  block = LIST_BLOCK,
): void {
  const name = 'userListsTo';
  checkCounts(name, { n, userRows, items, f });
  checkBlock(name, block);
  if (userFactors.length !== userRows * f) throw new Error(`${name}: userFactors length ${userFactors.length}, expected userRows*f = ${userRows * f}`);
  if (itemFactors.length !== items * f) throw new Error(`${name}: itemFactors length ${itemFactors.length}, expected items*f = ${items * f}`);
  if (itemNorms.length !== items) throw new Error(`${name}: itemNorms length ${itemNorms.length}, expected items = ${items}`);
  if (dst.length !== userRows * n) throw new Error(`${name}: dst length ${dst.length}, expected userRows*n = ${userRows * n}`);
  for (let p = 0; p < users.length; p++) {
    const u = users[p]!;
    if (u >= userRows) throw new Error(`${name}: user ${u} (at ${p}) outside [0, ${userRows})`);
    if (u + 1 >= ratedIndptr.length) continue;
    const a = ratedIndptr[u]!, b = ratedIndptr[u + 1]!;
    if (!(a <= b && b <= ratedIndices.length)) throw new Error(`${name}: user ${u}'s rated items [${a}, ${b}) outside ratedIndices (length ${ratedIndices.length})`);
    for (let c = a; c < b; c++) if (ratedIndices[c]! >= items) throw new Error(`${name}: user ${u} rated item ${ratedIndices[c]} outside [0, ${items})`);
  }
  checkScratch(name, scratch, items, f, n, block);
  if (n === 0) return;

  const lay = layoutOf(scratch, items, f, n, block);
  for (let p0 = 0; p0 < users.length; p0 += block) {
    const used = Math.min(block, users.length - p0);
    for (let r = 0; r < used; r++) copyRow(scratch, lay.rowsAt + r * f, userFactors, users[p0 + r]! * f, f);
    blockScoresTo(scratch, lay, used, itemFactors, itemNorms, items, f, false);
    for (let r = 0; r < used; r++) {
      const u = users[p0 + r]!;
      if (u + 1 < ratedIndptr.length) {
        const end = ratedIndptr[u + 1]!;
        for (let c = ratedIndptr[u]!; c < end; c++) scratch[r * items + ratedIndices[c]!] = NaN;
      }
      selectTo(dst, n, u, scratch, r, items, lay.heap);
    }
  }
}
