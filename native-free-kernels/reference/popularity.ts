// Reference twin of ../popularity.ts: the decay formula written out as stated.

export function popularityTo(dst: Float32Array, items: Uint32Array, timestamps: Float64Array, weights: Float32Array, now: number, halfLifeSeconds: number): void {
  if (timestamps.length !== items.length || weights.length !== items.length) throw new Error('event arrays differ in length');
  if (!(halfLifeSeconds > 0) || !Number.isFinite(halfLifeSeconds)) throw new Error('halfLifeSeconds must be positive and finite');
  for (const item of items) if (item >= dst.length) throw new Error(`item ${item} out of range`);
  dst.fill(0);
  for (let e = 0; e < items.length; e++) {
    const age = Math.max(0, now - timestamps[e]!);
    dst[items[e]!] = dst[items[e]!]! + weights[e]! * Math.pow(2, -age / halfLifeSeconds);
  }
}
