// Ratings as bytes: a stored value, a user's explicit record, a log record, and the packing of a
// request's batch for the write script (layouts described at the top of ratings-store.ts).

export const VALUE_BYTES = 17;
export const LOG_RECORD_BYTES = 24;
export const EXPLICIT = 1;

export interface RatingValue {
  rating: number;
  timestamp: number;
  explicit: boolean;
}

export interface StoredRating extends RatingValue {
  user: string; // canonical ids
  item: string;
}

// A canonical id, or a uint id as the number whose decimal text is its canonical id (what numeric
// columns hold: no string per id).
export type BatchId = string | number;

// Ratings of one request, grouped by user: users and items are distinct canonical ids; the ratings of
// users[g] are rows starts[g] to starts[g + 1] - 1 of the columns, in request order (a later rating of the
// same item wins), each naming its item by position in items.
export interface RatingBatch {
  users: BatchId[];
  items: BatchId[];
  starts: Uint32Array; // users.length + 1 entries
  item: Uint32Array;
  rating: Float64Array;
  timestamp: Float64Array;
  size: number; // rows
}

// A write's effect on training: the rating threshold it reached first (0: none).
export interface CountChange {
  threshold: number;
}

// A rated item as its user's sorted-set member and hash field: its dense index, uint32 big-endian.
export const MEMBER_BYTES = 4;

export function readValue(v: Buffer): RatingValue {
  return { explicit: v[0] === EXPLICIT, rating: v.readDoubleBE(1), timestamp: v.readDoubleBE(9) };
}

export function highest(indices: Uint32Array): number {
  let most = -1;
  for (let k = 0; k < indices.length; k++) if (indices[k]! > most) most = indices[k]!;
  return most;
}

// The PUT script's packed ratings (see there), rows in request order: a later rating of the same item
// comes later, so it wins.
export function packed(b: RatingBatch, users: Uint32Array, items: Uint32Array): Buffer {
  const buf = Buffer.allocUnsafe(b.users.length * 8 + b.size * (MEMBER_BYTES + VALUE_BYTES));
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  for (let g = 0; g < b.users.length; g++) {
    const from = b.starts[g]!;
    const n = b.starts[g + 1]! - from;
    if (n === 0) continue;
    view.setUint32(at, users[g]!, true);
    view.setUint32(at + 4, n, true);
    at += 8;
    for (let r = from; r < from + n; r++) {
      view.setUint32(at, items[b.item[r]!]!);
      buf[at + 4] = EXPLICIT;
      view.setFloat64(at + 5, b.rating[r]!);
      view.setFloat64(at + 13, b.timestamp[r]!);
      at += MEMBER_BYTES + VALUE_BYTES;
    }
  }
  return buf.subarray(0, at);
}

export function logRecords(b: RatingBatch): Buffer {
  const out = Buffer.allocUnsafe(b.size * LOG_RECORD_BYTES);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let at = 0;
  for (let g = 0; g < b.users.length; g++) {
    for (let r = b.starts[g]!; r < b.starts[g + 1]!; r++) {
      view.setUint32(at, g);
      view.setUint32(at + 4, b.item[r]!);
      view.setFloat64(at + 8, b.rating[r]!);
      view.setFloat64(at + 16, b.timestamp[r]!);
      at += LOG_RECORD_BYTES;
    }
  }
  return out;
}

// The batch cut into batches of at most `max` ratings, in order (a user's ratings may span two), each
// naming only its own users and items: what one write script takes.
export function* slices(b: RatingBatch, max: number): Generator<RatingBatch> {
  if (b.size <= max) {
    yield b;
    return;
  }
  const itemAt = new Int32Array(b.items.length);
  const stamp = new Uint32Array(b.items.length);
  let round = 0;
  let g = 0;
  for (let from = 0; from < b.size; from += max) {
    const to = Math.min(b.size, from + max);
    round++;
    const users: BatchId[] = [];
    const items: BatchId[] = [];
    const starts: number[] = [0];
    const item = new Uint32Array(to - from);
    while (b.starts[g + 1]! <= from) g++;
    for (let r = from; r < to; r++) {
      while (b.starts[g + 1]! <= r) g++;
      if (users.length === 0 || r === b.starts[g]!) {
        if (users.length > 0) starts.push(r - from);
        users.push(b.users[g]!);
      }
      const i = b.item[r]!;
      if (stamp[i] !== round) {
        stamp[i] = round;
        itemAt[i] = items.push(b.items[i]!) - 1;
      }
      item[r - from] = itemAt[i]!;
    }
    starts.push(to - from);
    yield {
      users,
      items,
      starts: Uint32Array.from(starts),
      item,
      rating: b.rating.subarray(from, to),
      timestamp: b.timestamp.subarray(from, to),
      size: to - from,
    };
  }
}
