// Helpers both SIMD modules (scores.ts, als.ts) inline.

// The sum of an f32x4's four lanes.
@inline export function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
}
