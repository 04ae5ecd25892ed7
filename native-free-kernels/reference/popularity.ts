// Reference twin of ../popularity.ts: the decay formula written out as stated.
import { checkEvents } from '../checks.js';

export function popularityTo(
  dst: Float32Array,
  items: Uint32Array,
  timestamps: Float64Array,
  weights: Float32Array,
  now: number,
  halfLifeSeconds: number,
): void {
  checkEvents(dst, items, timestamps, weights, halfLifeSeconds);
  dst.fill(0);
  for (let e = 0; e < items.length; e++) {
    const age = Math.max(0, now - timestamps[e]!);
    dst[items[e]!] = dst[items[e]!]! + weights[e]! * 2 ** (-age / halfLifeSeconds);
  }
}
