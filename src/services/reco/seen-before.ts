// Whether a key was asked for recently: what is asked for only once (a random session, every
// request different) is not worth a cache entry, and such entries, each surviving a few garbage
// collections in a cache of thousands, made the collector copy and compact them for nothing
// (bench/RESULTS.md: scavenges of 6–7 ms under random sessions). A direct-mapped table of 32-bit
// hashes: a key is seen again while no other key took its slot, so it remembers about the last
// `slots` distinct keys, in fixed memory; two keys of one hash (about 1 in 4 billion) count as one,
// which only caches something once too early.
export class SeenBefore {
  private readonly hashes: Uint32Array;
  private readonly shift: number;

  constructor(bits = 16) {
    this.hashes = new Uint32Array(1 << bits);
    this.shift = 32 - bits;
  }

  // True when the key was asked for before and is still remembered; remembers it either way.
  check(key: string): boolean {
    const h = fnv1a(key) || 1; // 0 marks an empty slot
    const slot = h >>> this.shift;
    const seen = this.hashes[slot] === h;
    this.hashes[slot] = h;
    return seen;
  }
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  // The high bits pick the slot: mix so that keys differing only in their last characters spread.
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
