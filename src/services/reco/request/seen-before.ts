// Whether a session's ratings were asked for recently: what is asked for only once (a random
// session, every request different) is not worth a cache entry, and such entries, each surviving a
// few garbage collections in a cache of thousands, made the collector copy and compact them for
// nothing (scavenges of 6–7 ms under random sessions, bench/http/reco.ts). A direct-mapped table of
// 32-bit hashes: ratings are seen again while no others took their slot, so it remembers about the
// last `slots` distinct ones, in fixed memory; two of one hash (about 1 in 4 billion) count as one,
// which only caches something once too early.
export class SeenBefore {
  private readonly hashes: Uint32Array;
  private readonly shift: number;

  constructor(bits = 16) {
    this.hashes = new Uint32Array(1 << bits);
    this.shift = 32 - bits;
  }

  // True when these rows and values were asked for before and are still remembered; remembers them
  // either way. Hashed as numbers: the key string a cache needs is then made only for ratings seen
  // before, not for every random session only to be hashed.
  check(items: readonly number[], values: readonly number[]): boolean {
    const h = hashRated(items, values) || 1; // 0 marks an empty slot
    const slot = h >>> this.shift;
    const seen = this.hashes[slot] === h;
    this.hashes[slot] = h;
    return seen;
  }
}

// A value's 64 bits, so that ratings such as 3.5 hash apart from 3 (on-heap: 8 bytes).
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

// FNV-1a over 32-bit words: the count (so that rows and values cannot trade places), each row, each
// value's two words.
function hashRated(items: readonly number[], values: readonly number[]): number {
  let h = Math.imul(0x811c9dc5 ^ items.length, 0x01000193);
  for (let i = 0; i < items.length; i++) h = Math.imul(h ^ items[i]!, 0x01000193);
  for (let i = 0; i < values.length; i++) {
    bits[0] = values[i]!;
    h = Math.imul(h ^ words[0]!, 0x01000193);
    h = Math.imul(h ^ words[1]!, 0x01000193);
  }
  // The high bits pick the slot: mix so that ratings differing only in their last values spread.
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
