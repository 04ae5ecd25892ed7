// Time-decayed item popularity: per-item sum of event weights halved every halfLifeSeconds.
import { checkEvents } from './checks.js';

// Events from the future (t > now) count at full weight rather than growing past it.
export function popularityTo(
  dst: Float32Array,
  items: Uint32Array,
  timestamps: Float64Array,
  weights: Float32Array,
  now: number,
  halfLifeSeconds: number,
): void {
  checkEvents(dst, items, timestamps, weights, halfLifeSeconds);
  const m = items.length;
  dst.fill(0);
  const perSecond = -1 / halfLifeSeconds;
  for (let e = 0; e < m; e++) {
    const age = now - timestamps[e]!;
    dst[items[e]!]! += weights[e]! * 2 ** (Math.max(age, 0) * perSecond);
  }
}
