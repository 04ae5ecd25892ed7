// Groups of item rows of (nearly) equal direction: on sparse catalogues, items rated by the same one
// or two users get the same factor row up to their ratings' confidence, and their exact ranking
// among each other is decided by float rounding. A round of neighbours of neighbours offers a row
// its whole group (refine-lists.ts): found by hashing each unit row rounded to `scale`; a hash
// collision only adds candidates, which are scored exactly.

const EMPTY = 0xffffffff;

export interface DirectionGroups {
  of: Uint32Array; // each row's group, EMPTY for a row alone in its direction or of norm 0
  offsets: Uint32Array; // groups + 1: group g holds members[offsets[g] .. offsets[g+1]), rows ascending
  members: Uint32Array;
}

export function directionGroupsOf(factors: Float32Array, norms: Float32Array, items: number, f: number, scale = 1e5): DirectionGroups {
  if (factors.length !== items * f || norms.length !== items) throw new Error(`directionGroupsOf: factors or norms do not hold ${items} rows of ${f}`);
  const key = new Map<number, number>(); // hash → first row, then group index + items
  const hashes = new Float64Array(items);
  const count = new Map<number, number>();
  for (let r = 0; r < items; r++) {
    if (norms[r] === 0) continue;
    // Two 26-bit FNV-style hashes of the rounded unit coordinates combined into one exact double.
    let a = 2166136261, b = 5381;
    for (let k = 0; k < f; k++) {
      const q = Math.round((factors[r * f + k]! / norms[r]!) * scale) | 0;
      a = Math.imul(a ^ q, 16777619) >>> 0;
      b = (Math.imul(b, 33) + q) >>> 0;
    }
    const h = (a & 0x3ffffff) * 0x4000000 + (b & 0x3ffffff);
    hashes[r] = h;
    count.set(h, (count.get(h) ?? 0) + 1);
  }
  let groups = 0;
  for (const [h, c] of count) if (c > 1) key.set(h, groups++);
  const of = new Uint32Array(items).fill(EMPTY);
  const offsets = new Uint32Array(groups + 1);
  for (let r = 0; r < items; r++) {
    if (norms[r] === 0) continue;
    const g = key.get(hashes[r]!);
    if (g !== undefined) {
      of[r] = g;
      offsets[g + 1]!++;
    }
  }
  for (let g = 0; g < groups; g++) offsets[g + 1]! += offsets[g]!;
  const members = new Uint32Array(offsets[groups]!);
  const fill = offsets.slice(0, groups);
  for (let r = 0; r < items; r++) if (of[r] !== EMPTY) members[fill[of[r]!]!++] = r;
  return { of, offsets, members };
}
