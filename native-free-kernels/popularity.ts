// Time-decayed item popularity: per-item sum of event weights halved every halfLifeSeconds.

// Events from the future (t > now) count at full weight rather than growing past it.
export function popularityTo(dst: Float32Array, items: Uint32Array, timestamps: Float64Array, weights: Float32Array, now: number, halfLifeSeconds: number): void {
  const m = items.length;
  if (timestamps.length !== m || weights.length !== m) throw new Error(`event arrays differ in length: ${m}, ${timestamps.length}, ${weights.length}`);
  if (!(halfLifeSeconds > 0) || !Number.isFinite(halfLifeSeconds)) throw new Error(`halfLifeSeconds must be positive and finite, got ${halfLifeSeconds}`);
  const n = dst.length;
  for (let e = 0; e < m; e++) if (items[e]! >= n) throw new Error(`item ${items[e]} out of range at ${e} (catalogue ${n})`);
  dst.fill(0);
  const perSecond = -1 / halfLifeSeconds;
  for (let e = 0; e < m; e++) {
    const age = now - timestamps[e]!;
    dst[items[e]!]! += weights[e]! * 2 ** ((age > 0 ? age : 0) * perSecond);
  }
}
