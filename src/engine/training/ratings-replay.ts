// The ratings a training run sees: the last compacted snapshot plus the ratings log written since
// (store/ratings-store.ts), replayed in order: the last write of a (user, item) wins, `delete`
// removes one rating, `delete-user` every earlier rating of a user. Pure: runs in a worker.
import type { LogEntry } from '../../store/ratings-log.js';

export type { LogEntry };

export interface Snapshot {
  users: Uint32Array; // dense indices, sorted by (user, item), each pair once
  items: Uint32Array;
  ratings: Float32Array;
  timestamps: Float64Array;
}

const RECORD = 24;
const ALL = 0xffffffff;

export function replay(base: Snapshot | undefined, log: LogEntry[]): Snapshot {
  let n = base?.users.length ?? 0;
  for (const e of log) n += e.op === 'put' || e.op === 'infer' ? Math.floor((e.r?.byteLength ?? 0) / RECORD) : 1;
  // Events in write order: rating NaN marks a deletion, item ALL a user's deletion.
  const eu = new Uint32Array(n),
    ei = new Uint32Array(n),
    er = new Float32Array(n),
    ets = new Float64Array(n);
  let m = 0;
  if (base) {
    m = base.users.length;
    eu.set(base.users);
    ei.set(base.items);
    er.set(base.ratings);
    ets.set(base.timestamps);
  }
  const userGone = new Map<number, number>(); // user -> event of their last delete-user
  for (const e of log) {
    const us = e.u === '' ? [] : e.u.split(',').map(Number);
    const is = e.i === '' ? [] : e.i.split(',').map(Number);
    if (e.op === 'put' || e.op === 'infer') {
      const r = e.r;
      if (!r || r.byteLength % RECORD !== 0) throw new Error(`ratings log: ${e.op} entry without whole ${RECORD}-byte records`);
      const dv = new DataView(r.buffer, r.byteOffset, r.byteLength);
      for (let at = 0; at < r.byteLength; at += RECORD) {
        const up = dv.getUint32(at),
          ip = dv.getUint32(at + 4);
        // A corrupt entry must fail the run, not charge its ratings to another user or item.
        if (up >= us.length || ip >= is.length)
          throw new Error(`ratings log: record names position ${up}/${ip} of ${us.length}/${is.length} ids`);
        eu[m] = us[up]!;
        ei[m] = is[ip]!;
        er[m] = dv.getFloat64(at + 8);
        ets[m] = dv.getFloat64(at + 16);
        m++;
      }
    } else if (e.op === 'delete') {
      eu[m] = us[0]!;
      ei[m] = is[0]!;
      er[m] = NaN;
      m++;
    } else if (e.op === 'delete-user') {
      eu[m] = us[0]!;
      ei[m] = ALL;
      userGone.set(us[0]!, m);
      m++;
    } else {
      throw new Error(`ratings log: unknown op ${JSON.stringify(e.op)}`);
    }
  }
  // Live events by user (a stable counting sort), then each user's by item, stably: write order
  // within each (user, item) is kept, so its last write is the last of its run. Sorting each user's
  // few events where they sit costs a fraction of a second counting sort over all of them by item,
  // whose scattered reads and writes were most of a 20M-rating replay.
  let live = 0;
  const liveEvents = new Uint32Array(m);
  for (let e = 0; e < m; e++) {
    if (ei[e] === ALL) continue;
    if (userGone.size > 0) {
      const gone = userGone.get(eu[e]!);
      if (gone !== undefined && e < gone) continue;
    }
    liveEvents[live++] = e;
  }
  const order = byUser(liveEvents.subarray(0, live), eu);
  let kept = 0;
  for (let s = 0; s < order.length; ) {
    const u = eu[order[s]!]!;
    let end = s + 1;
    while (end < order.length && eu[order[end]!] === u) end++;
    byItemStable(order, s, end, ei);
    for (let k = s; k < end; k++) {
      const e = order[k]!;
      const last = k === end - 1 || ei[order[k + 1]!] !== ei[e];
      if (last && !Number.isNaN(er[e]!)) order[kept++] = e;
    }
    s = end;
  }
  const out: Snapshot = {
    users: new Uint32Array(kept),
    items: new Uint32Array(kept),
    ratings: new Float32Array(kept),
    timestamps: new Float64Array(kept),
  };
  for (let k = 0; k < kept; k++) {
    const e = order[k]!;
    out.users[k] = eu[e]!;
    out.items[k] = ei[e]!;
    out.ratings[k] = er[e]!;
    out.timestamps[k] = ets[e]!;
  }
  return out;
}

// Events reordered by user, stable (a counting sort over the users' range).
function byUser(events: Uint32Array, user: Uint32Array): Uint32Array {
  let max = 0;
  for (let k = 0; k < events.length; k++) if (user[events[k]!]! > max) max = user[events[k]!]!;
  const start = new Uint32Array(max + 2);
  for (let k = 0; k < events.length; k++) start[user[events[k]!]! + 1]!++;
  for (let k = 0; k <= max; k++) start[k + 1]! += start[k]!;
  const out = new Uint32Array(events.length);
  for (let k = 0; k < events.length; k++) {
    const e = events[k]!;
    out[start[user[e]!]!++] = e;
  }
  return out;
}

// order[from, to) by item, stably. Events there ascend (write order), so ties broken by the event
// are a stable sort. Most runs are short or already in item order (a snapshot's own rows).
function byItemStable(order: Uint32Array, from: number, to: number, item: Uint32Array): void {
  let sorted = true;
  for (let k = from + 1; k < to && sorted; k++) sorted = item[order[k - 1]!]! <= item[order[k]!]!;
  if (sorted) return;
  if (to - from <= 32) {
    for (let k = from + 1; k < to; k++) {
      const e = order[k]!,
        key = item[e]!;
      let j = k - 1;
      for (; j >= from && item[order[j]!]! > key; j--) order[j + 1] = order[j]!;
      order[j + 1] = e;
    }
    return;
  }
  order.subarray(from, to).sort((a, b) => item[a]! - item[b]! || a - b);
}

// Snapshot blob: count (uint32 LE) then the four columns, little-endian, each 8-byte aligned.
// In a SharedArrayBuffer when `shared`: a pool task's answer then crosses to the caller uncopied.
export function encodeSnapshot(s: Snapshot, shared = false): Uint8Array {
  const n = s.users.length;
  const at = snapshotOffsets(n);
  const out = shared ? new Uint8Array(new SharedArrayBuffer(at.bytes)) : new Uint8Array(at.bytes);
  new DataView(out.buffer).setUint32(0, n, true);
  new Uint32Array(out.buffer, at.users, n).set(s.users);
  new Uint32Array(out.buffer, at.items, n).set(s.items);
  new Float32Array(out.buffer, at.ratings, n).set(s.ratings);
  new Float64Array(out.buffer, at.timestamps, n).set(s.timestamps);
  return out;
}

export function decodeSnapshot(blob: Uint8Array): Snapshot {
  // Typed views need aligned offsets: bytes read part by part into one buffer start at 0, but a
  // Redis reply's bytes may sit at any offset and are then copied (once) into a fresh buffer.
  const bytes = blob.byteOffset % 8 === 0 ? blob : new Uint8Array(blob);
  const n = bytes.byteLength >= 8 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) : -1;
  const at = snapshotOffsets(Math.max(n, 0));
  if (n < 0 || at.bytes !== bytes.byteLength) throw new Error(`ratings snapshot: ${bytes.byteLength} bytes do not hold ${n} ratings`);
  const o = bytes.byteOffset;
  return {
    users: new Uint32Array(bytes.buffer, o + at.users, n),
    items: new Uint32Array(bytes.buffer, o + at.items, n),
    ratings: new Float32Array(bytes.buffer, o + at.ratings, n),
    timestamps: new Float64Array(bytes.buffer, o + at.timestamps, n),
  };
}

function snapshotOffsets(n: number) {
  const a8 = (x: number) => (x + 7) & ~7;
  const users = 8;
  const items = a8(users + 4 * n);
  const ratings = a8(items + 4 * n);
  const timestamps = a8(ratings + 4 * n);
  return { users, items, ratings, timestamps, bytes: timestamps + 8 * n };
}
