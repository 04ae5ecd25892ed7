// The cosines of one item row with a list of others (exported by scores.ts), for the rounds of
// neighbours of neighbours over the item lists (../../refine-lists.ts, its twin). The dots are summed
// in f64 exactly as ../../dot.ts dotAt sums them: four partial sums by k % 4 (two f64x2), the f % 4
// left into the first, then ((d0 + d1) + d2) + d3; f32 × f32 products are exact in f64, so each
// cosine is the twin's to the bit and the lists the twin would make.

// dst[c] (f32) = query · row items[c] / (queryNorm · norms[items[c]]), c < count; rows f f32 apart.
export function rowCosines(dst: usize, query: usize, queryNorm: f64, rows: usize, norms: usize, f: i32, items: usize, count: i32): void {
  const stride = <usize>f << 2, f4 = f & ~3;
  for (let c = 0; c < count; c++) {
    const i = load<u32>(items + (<usize>c << 2));
    const r = rows + <usize>i * stride;
    let d01 = f64x2.splat(0), d23 = f64x2.splat(0);
    for (let k = 0; k < f4; k += 4) {
      const o = <usize>k << 2;
      const x = v128.load(query + o), y = v128.load(r + o);
      d01 = f64x2.add(d01, f64x2.mul(f64x2.promote_low_f32x4(x), f64x2.promote_low_f32x4(y)));
      d23 = f64x2.add(d23, f64x2.mul(f64x2.promote_low_f32x4(i32x4.shuffle(x, x, 2, 3, 2, 3)), f64x2.promote_low_f32x4(i32x4.shuffle(y, y, 2, 3, 2, 3))));
    }
    let d0 = f64x2.extract_lane(d01, 0);
    for (let k = f4; k < f; k++) d0 += <f64>load<f32>(query + (<usize>k << 2)) * <f64>load<f32>(r + (<usize>k << 2));
    const dot = d0 + f64x2.extract_lane(d01, 1) + f64x2.extract_lane(d23, 0) + f64x2.extract_lane(d23, 1);
    store<f32>(dst + (<usize>c << 2), <f32>(dot / (queryNorm * <f64>load<f32>(norms + (<usize>i << 2)))));
  }
}
