// Users' lists (lists.ts userListsTo's contract) by the WebAssembly SIMD kernel (wasm/assembly/
// user-lists.ts) over a model's rows in wasm memory (wasm-rows.ts): the rows in norm order that the
// vector scan serves a user's later pages from, scored with the same f32 dots, so nothing is copied
// but a block's user rows. Blocks of up to 32 users (one bit each in a rated mask over the items)
// in one scratch slot of the memory.
import { checkUserLists } from './checks.js';
import type { WasmRows } from './wasm-rows.js';

const EMPTY = 0xffffffff;
// Users a kernel call lists: a u32 mask bit each. Larger blocks read each item row once for more
// users (bench/kernels/user-lists-speed.ts); the kernel stops a group of four once all four are done.
const MAX_BLOCK = 32;
const TILE = 256; // wasm/assembly/user-lists.ts TILE
const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

// Byte offsets from a slot's start of one call's scratch (block users, heaps of k, n items, f
// factors), and its size `end`: the rated mask (n u32) | the users' rows (padded to four) | state
// (sizes, done, |user|) | a tile's dots | the heaps' items | their scores.
function parts(block: number, k: number, n: number, f: number) {
  const lanes = Math.ceil(block / 4) * 4;
  const users = align(n * 4),
    state = users + align(lanes * f * 4),
    dots = state + align(lanes * 16);
  const heapItems = dots + align(TILE * lanes * 4),
    heapScores = heapItems + align(block * k * 4);
  return { users, state, dots, heapItems, heapScores, end: heapScores + align(block * k * 4) };
}

/** Bytes of a scratch slot for lists of k over n items of f factors, four users a call at least. */
export const userListsSlotBytes = (n: number, f: number, k: number): number => (k > 0 ? parts(4, Math.min(k, n), n, f).end : 0);

/**
 * userListsTo (lists.ts) over the items of `rows` in their norm order: the same arguments but the
 * order and block, checked the same way (a bad one throws before anything is written); false, with
 * nothing written, where the kernel cannot run (no free scratch slot, or slots allocated without
 * room for four users' lists of n), so the caller lists with the twin instead.
 */
export function wasmUserListsTo(
  rows: WasmRows,
  dst: Uint32Array,
  n: number,
  users: Uint32Array,
  userFactors: Float32Array,
  userRows: number,
  ratedIndptr: Uint32Array,
  ratedIndices: Uint32Array,
  packed = false,
): boolean {
  const items = rows.n,
    f = rows.f,
    at = rows.sortedAt;
  checkUserLists('wasmUserListsTo', dst, n, users, userFactors, userRows, items, f, ratedIndptr, ratedIndices, packed);
  if (n === 0 || users.length === 0) return true;
  const k = Math.min(n, at.count);
  let block = MAX_BLOCK;
  while (block > 4 && parts(block, k, items, f).end > rows.slotBytes) block -= 4;
  if (parts(block, k, items, f).end > rows.slotBytes) return false;
  const o = parts(block, k, items, f);
  const ratedOf = (u: number): [number, number] => (u + 1 < ratedIndptr.length ? [ratedIndptr[u]!, ratedIndptr[u + 1]!] : [0, 0]);
  return rows.withSlot((slot) => {
    const buffer = rows.memory.buffer;
    const rated = new Uint32Array(buffer, slot, items),
      heads = new Uint32Array(buffer, slot + o.heapItems, block * k);
    const rowsOf = new Float32Array(buffer, slot + o.users, Math.ceil(block / 4) * 4 * f);
    rated.fill(0); // the slot holds whatever its last call left
    for (let p0 = 0; p0 < users.length; p0 += block) {
      const used = Math.min(block, users.length - p0);
      rowsOf.fill(0, used * f, Math.ceil(used / 4) * 4 * f);
      for (let r = 0; r < used; r++) {
        const u = users[p0 + r]!;
        rowsOf.set(userFactors.subarray(u * f, u * f + f), r * f);
        const [a, b] = ratedOf(u);
        for (let c = a; c < b; c++) rated[ratedIndices[c]!]! |= 1 << r;
      }
      if (k > 0)
        rows.kernels.userLists(
          slot + o.heapItems,
          slot + o.heapScores,
          k,
          slot + o.users,
          used,
          at.rows,
          at.norms,
          at.order,
          at.count,
          f,
          slot,
          slot + o.dots,
          slot + o.state,
        );
      for (let r = 0; r < used; r++) {
        const u = users[p0 + r]!,
          to = (packed ? p0 + r : u) * n;
        dst.set(heads.subarray(r * k, r * k + k), to);
        dst.fill(EMPTY, to + k, to + n);
        const [a, b] = ratedOf(u);
        for (let c = a; c < b; c++) rated[ratedIndices[c]!] = 0;
      }
    }
  });
}
