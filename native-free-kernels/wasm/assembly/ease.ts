// WebAssembly SIMD twin of ../../ease.ts sweepPivotTo / sweepUpdateTo (AssemblyScript, compiled by
// `npm run build` to dist/native-free-kernels/wasm/ease.wasm). The matrix lives in one shared memory
// that every training thread imports (../../wasm-ease.ts lays it out), so a block's update runs on
// all threads over the same copy. f32 (f32x4, twice f64x2's lanes): EASE's λ keeps the matrix well
// conditioned, and B is within 2·10⁻⁵ of the f64 sweep's largest entry even at λ = 1× the Gram
// diagonal's mean, users' top 10 unchanged (bench/kernels/ease-speed.ts).
//
// Arguments are byte offsets; the matrix is n rows of `ld` f32 (ld a multiple of 8, the padding
// columns zero, so they stay zero and no loop needs a tail).

// Columns a pass of the update covers: the panel's b × COLUMNS slice then stays in L1/L2 while
// every row group of the range goes by (at n 2,189 and b 64, 128–2,048 and no split measured alike
// within noise; at 4,000 the whole panel, 1 MB, would no longer stay in L2).
const COLUMNS = 512;

/**
 * dst[r][j] −= Σ_q mult[r·b + q] · src[q][j] for r < rows, j < cols (a multiple of 8): dst rows `ldd`
 * f32 apart, src rows `lds` apart. Four rows × eight columns at a time in eight f32x4 accumulators,
 * so each panel vector loaded serves four rows.
 */
function rankUpdate(dst: usize, ldd: i32, rows: i32, mult: usize, b: i32, src: usize, lds: i32, cols: i32): void {
  const dStride = <usize>ldd << 2, sStride = <usize>lds << 2, mStride = <usize>b << 2;
  for (let j0 = 0; j0 < cols; j0 += COLUMNS) {
    const j1 = min(cols, j0 + COLUMNS);
    let r = 0;
    for (; r + 4 <= rows; r += 4) {
      const d = dst + <usize>r * dStride, m = mult + <usize>r * mStride;
      for (let j = j0; j < j1; j += 8) {
        let a00 = f32x4.splat(0), a01 = f32x4.splat(0), a10 = f32x4.splat(0), a11 = f32x4.splat(0);
        let a20 = f32x4.splat(0), a21 = f32x4.splat(0), a30 = f32x4.splat(0), a31 = f32x4.splat(0);
        let s = src + (<usize>j << 2), w = m;
        for (let q = 0; q < b; q++) {
          const x0 = v128.load(s), x1 = v128.load(s, 16);
          const w0 = v128.load32_splat(w), w1 = v128.load32_splat(w + mStride), w2 = v128.load32_splat(w + 2 * mStride), w3 = v128.load32_splat(w + 3 * mStride);
          a00 = f32x4.add(a00, f32x4.mul(w0, x0));
          a01 = f32x4.add(a01, f32x4.mul(w0, x1));
          a10 = f32x4.add(a10, f32x4.mul(w1, x0));
          a11 = f32x4.add(a11, f32x4.mul(w1, x1));
          a20 = f32x4.add(a20, f32x4.mul(w2, x0));
          a21 = f32x4.add(a21, f32x4.mul(w2, x1));
          a30 = f32x4.add(a30, f32x4.mul(w3, x0));
          a31 = f32x4.add(a31, f32x4.mul(w3, x1));
          s += sStride;
          w += 4;
        }
        const o = d + (<usize>j << 2);
        v128.store(o, f32x4.sub(v128.load(o), a00));
        v128.store(o, f32x4.sub(v128.load(o, 16), a01), 16);
        v128.store(o + dStride, f32x4.sub(v128.load(o + dStride), a10));
        v128.store(o + dStride, f32x4.sub(v128.load(o + dStride, 16), a11), 16);
        v128.store(o + 2 * dStride, f32x4.sub(v128.load(o + 2 * dStride), a20));
        v128.store(o + 2 * dStride, f32x4.sub(v128.load(o + 2 * dStride, 16), a21), 16);
        v128.store(o + 3 * dStride, f32x4.sub(v128.load(o + 3 * dStride), a30));
        v128.store(o + 3 * dStride, f32x4.sub(v128.load(o + 3 * dStride, 16), a31), 16);
      }
    }
    // The last rows (fewer than four), one at a time.
    for (; r < rows; r++) {
      const d = dst + <usize>r * dStride, m = mult + <usize>r * mStride;
      for (let j = j0; j < j1; j += 8) {
        let a0 = f32x4.splat(0), a1 = f32x4.splat(0);
        let s = src + (<usize>j << 2);
        for (let q = 0; q < b; q++) {
          const w0 = v128.load32_splat(m + (<usize>q << 2));
          a0 = f32x4.add(a0, f32x4.mul(w0, v128.load(s)));
          a1 = f32x4.add(a1, f32x4.mul(w0, v128.load(s, 16)));
          s += sStride;
        }
        const o = d + (<usize>j << 2);
        v128.store(o, f32x4.sub(v128.load(o), a0));
        v128.store(o, f32x4.sub(v128.load(o, 16), a1), 16);
      }
    }
  }
}

/**
 * First half of sweeping pivots [k, k + b) of `a` (n × ld f32): inverts the pivot block in f64
 * (`inv`, b × b f64 scratch), writes −D⁻¹ to `negd` (b × b f32) and the block's new rows into
 * `panel` (b × ld f32: D⁻¹·A_K· outside the block's columns, D⁻¹ in them) and into a's rows K.
 * Returns 0 when the block is not positive definite (a is then unusable), else 1.
 */
export function pivot(a: usize, ld: i32, k: i32, b: i32, inv: usize, negd: usize, panel: usize): i32 {
  const row = <usize>ld << 2, top = a + <usize>k * row;
  for (let t = 0; t < b; t++) for (let s = 0; s < b; s++) store<f64>(inv + (<usize>(t * b + s) << 3), <f64>load<f32>(top + <usize>t * row + (<usize>(k + s) << 2)));
  if (!invertSmall(inv, b)) return 0;
  for (let t = 0; t < b * b; t++) store<f32>(negd + (<usize>t << 2), <f32>-load<f64>(inv + (<usize>t << 3)));
  memory.fill(panel, 0, <usize>b * row);
  rankUpdate(panel, ld, b, negd, b, top, ld, ld);
  for (let t = 0; t < b; t++) for (let s = 0; s < b; s++) store<f32>(panel + <usize>t * row + (<usize>(k + s) << 2), -load<f32>(negd + (<usize>(t * b + s) << 2)));
  memory.copy(top, panel, <usize>b * row);
  return 1;
}

/**
 * Second half, for rows [rowStart, rowEnd) outside the block: A_ij −= A_iK·(D⁻¹A_Kj), and
 * A_iK = −A_iK·D⁻¹. Both are one product with the panel: each row's A_iK is moved to `mult` (n × b
 * f32, row i at i·b, so ranges on different threads use different parts) and zeroed, and the
 * panel's block columns hold D⁻¹. Ranges may run on different threads at once.
 */
export function update(a: usize, ld: i32, k: i32, b: i32, panel: usize, mult: usize, rowStart: i32, rowEnd: i32): void {
  segment(a, ld, k, b, panel, mult, rowStart, min(rowEnd, k));
  segment(a, ld, k, b, panel, mult, max(rowStart, k + b), rowEnd);
}

function segment(a: usize, ld: i32, k: i32, b: i32, panel: usize, mult: usize, from: i32, to: i32): void {
  if (from >= to) return;
  const row = <usize>ld << 2, bytes = <usize>b << 2;
  for (let i = from; i < to; i++) {
    const block = a + <usize>i * row + (<usize>k << 2);
    memory.copy(mult + <usize>i * bytes, block, bytes);
    memory.fill(block, 0, bytes);
  }
  rankUpdate(a + <usize>from * row, ld, to - from, mult + <usize>from * bytes, b, panel, ld, ld);
}

// Gauss-Jordan inverse of a small symmetric positive definite block (b × b f64), in place; false on
// a non-positive pivot.
function invertSmall(m: usize, b: i32): bool {
  for (let k = 0; k < b; k++) {
    const rk = m + (<usize>(k * b) << 3);
    const p = load<f64>(rk + (<usize>k << 3));
    if (!(p > 0)) return false;
    store<f64>(rk + (<usize>k << 3), 1);
    const inv = 1 / p;
    for (let j = 0; j < b; j++) store<f64>(rk + (<usize>j << 3), load<f64>(rk + (<usize>j << 3)) * inv);
    for (let i = 0; i < b; i++) {
      if (i === k) continue;
      const ri = m + (<usize>(i * b) << 3);
      const f = load<f64>(ri + (<usize>k << 3));
      if (f === 0) continue;
      store<f64>(ri + (<usize>k << 3), 0);
      for (let j = 0; j < b; j++) store<f64>(ri + (<usize>j << 3), load<f64>(ri + (<usize>j << 3)) - f * load<f64>(rk + (<usize>j << 3)));
    }
  }
  return true;
}
