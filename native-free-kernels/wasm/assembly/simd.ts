// Helpers the SIMD modules (scores.ts, user-lists.ts, als.ts) inline.

// The sum of an f32x4's four lanes.
@inline export function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}

// Entries [from, f) of q · r one by one: the f % 4 left after the f32x4 steps.
@inline export function tail(q: usize, r: usize, from: i32, f: i32): f32 {
  let s: f32 = 0;
  for (let k = from; k < f; k++) s += load<f32>(q + (<usize>k << 2)) * load<f32>(r + (<usize>k << 2));
  return s;
}
