// Factor vectors made from items and users of a served model, to rank by (rankings.ts): the mean
// direction of some items, the mean factors of some users, a vector steered towards context items.
import { meanRowsTo, meanUnitRowsTo, steerTo } from '../../../native-free-kernels/rows.js';
import type { Scorable } from './rankings.js';

// The mean unit factor row of the given items (zeros when none has factors).
export function meanDirection(m: Scorable, items: number[]): Float32Array {
  const { items: n, factors: f } = m.views.dims;
  const out = new Float32Array(f);
  meanUnitRowsTo(out, m.views.itemFactors, m.rows.norms, n, f, items);
  return out;
}

// The mean factor row of the given users (user rows, e.g. those sharing some user properties),
// leaving out users without factors (rows of zeros); undefined when none has factors.
export function meanUserFactors(m: Scorable, users: ArrayLike<number>): Float32Array | undefined {
  const { users: n, factors: f } = m.views.dims;
  const out = new Float32Array(f);
  return meanRowsTo(out, m.views.userFactors, n, f, users) === 0 ? undefined : out;
}

// Steers a factor vector (in place) towards the context items: adds the mean of their unit factor
// rows scaled to the vector's length (1 for a vector of zeros), where an item without factors adds
// nothing but still counts in the mean.
export function steerTowards(m: Scorable, vector: Float32Array, context: readonly number[]): void {
  if (context.length === 0) return;
  const { items: n, factors: f } = m.views.dims;
  let length = Math.hypot(...vector);
  if (length === 0) length = 1;
  steerTo(vector, m.views.itemFactors, m.rows.norms, n, f, context, length);
}
