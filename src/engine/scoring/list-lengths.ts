// How much of a precomputed list holds items, and a user's trained factors (which say whether they
// have a list at all).
import { rowIsZero } from '../../../native-free-kernels/rows.js';
import { NO_ITEM, UNLISTED, userListOf, type ModelViews } from '../model/layout.js';

// A user's trained factor row; undefined for a user who had no ratings (a row of zeros).
export function trainedFactors(v: ModelViews, user: number): Float32Array | undefined {
  const f = v.dims.factors;
  return rowIsZero(v.userFactors, v.dims.users, f, user) ? undefined : v.userFactors.subarray(user * f, (user + 1) * f);
}

// Items in the user's list: 0 when it was not computed (a training computes as many as its time allows).
export const userListLength = (v: ModelViews, user: number): number => listLength(userListOf(v, user));

// Items of a precomputed list before its first NO_ITEM.
export function listLength(list: Uint32Array): number {
  if (list.length === 0 || list[0] === UNLISTED) return 0;
  // Most lists are full: their last slot says so without a scan.
  if (list[list.length - 1] !== NO_ITEM) return list.length;
  const end = list.indexOf(NO_ITEM);
  return end < 0 ? list.length : end;
}
