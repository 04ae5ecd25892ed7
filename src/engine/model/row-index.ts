// Canonical id -> model row. Ids of the numeric types (uint32, uint64) go in an open-addressing table
// of numbers: a lookup parses the key's digits instead of hashing a fresh string and comparing it
// with the stored one (the largest part of a cached answer's cost, by CPU profile), and a million
// users take 24 MB instead of a Map of a million strings. Other ids go in a Map.
export interface RowIndex {
  get(key: string): number | undefined;
  readonly size: number;
}

// Ids to rows ('' for none) a slice at a time: a model of a million users must not hold the event
// loop for the whole index.
const SLICE = 10_000;
export async function rowIndexOf(ids: string[]): Promise<RowIndex> {
  const numeric = ids.every((id) => id === '' || digitsValue(id) !== undefined);
  const out: RowIndex & { set(key: string, row: number): void } = numeric ? new NumericRows(ids.length) : new Map<string, number>();
  for (let at = 0; at < ids.length; at += SLICE) {
    if (at > 0) await new Promise((r) => setImmediate(r));
    for (let k = at; k < Math.min(ids.length, at + SLICE); k++) if (ids[k] !== '') out.set(ids[k]!, k);
  }
  return out;
}

// The same index from ids read `sliceRows` rows at a time (`read(from, to)`, the next slice read while
// one is indexed), never all held at once: 20M user ids as strings are ~640 MB more at a model's load.
// Numeric until an id is not, then a Map of every id so far.
export async function rowIndexOfSlices(
  rows: number,
  read: (from: number, to: number) => Promise<string[]>,
  sliceRows = 100_000,
): Promise<RowIndex> {
  let numeric: NumericRows | undefined = new NumericRows(rows);
  let map: Map<string, number> | undefined;
  let next = rows > 0 ? read(0, Math.min(rows, sliceRows)) : undefined;
  for (let from = 0; from < rows; from += sliceRows) {
    const ids = await next!;
    next = from + sliceRows < rows ? read(from + sliceRows, Math.min(rows, from + 2 * sliceRows)) : undefined;
    for (let at = 0; at < ids.length; at += SLICE) {
      await new Promise((r) => setImmediate(r));
      for (let k = at; k < Math.min(ids.length, at + SLICE); k++) {
        const id = ids[k]!;
        if (id === '') continue;
        if (numeric && digitsValue(id) === undefined) {
          map = numeric.toMap();
          numeric = undefined;
        }
        if (numeric) numeric.set(id, from + k);
        else map!.set(id, from + k);
      }
    }
  }
  return numeric ?? map!;
}

// The value of a canonical non-negative integer (no sign, no leading zero, at most 2^53 - 1), else undefined.
export function digitsValue(key: string): number | undefined {
  const n = key.length;
  if (n === 0 || n > 16 || (n > 1 && key.charCodeAt(0) === 48)) return undefined;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = key.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    v = v * 10 + d;
  }
  return v <= Number.MAX_SAFE_INTEGER ? v : undefined;
}

// Linear probing over a power-of-two table at most half full; rows[slot] = -1 marks a free slot.
// log2 of the slots of an index of `expected` ids: at most half full. Each slot is 12 bytes (key and
// row), which the capacity planner (src/cli/plan-model.ts) counts per serving process.
export function numericRowsBits(expected: number): number {
  let bits = 4;
  while (2 ** bits < 2 * expected) bits++;
  return bits;
}

export class NumericRows implements RowIndex {
  size = 0;
  private readonly keys: Float64Array;
  private readonly rows: Int32Array;
  private readonly mask: number;
  private readonly shift: number;

  constructor(expected: number) {
    const bits = numericRowsBits(expected);
    this.keys = new Float64Array(2 ** bits);
    this.rows = new Int32Array(2 ** bits).fill(-1);
    this.mask = 2 ** bits - 1;
    this.shift = 32 - bits;
  }

  get(key: string): number | undefined {
    const v = digitsValue(key);
    if (v === undefined) return undefined;
    for (let s = slotOf(v, this.shift); ; s = (s + 1) & this.mask) {
      const row = this.rows[s]!;
      if (row < 0) return undefined;
      if (this.keys[s] === v) return row;
    }
  }

  // Every id and row as a Map (canonical ids print back as they were read).
  toMap(): Map<string, number> {
    const out = new Map<string, number>();
    for (let s = 0; s < this.rows.length; s++) if (this.rows[s]! >= 0) out.set(String(this.keys[s]), this.rows[s]!);
    return out;
  }

  set(key: string, row: number): void {
    const v = digitsValue(key);
    if (v === undefined) throw new Error(`not a numeric id: ${JSON.stringify(key)}`);
    for (let s = slotOf(v, this.shift); ; s = (s + 1) & this.mask) {
      if (this.rows[s]! < 0) {
        if (2 * (this.size + 1) > this.rows.length) throw new Error('row index over capacity');
        this.keys[s] = v;
        this.rows[s] = row;
        this.size++;
        return;
      }
      if (this.keys[s] === v) {
        this.rows[s] = row;
        return;
      }
    }
  }
}

// Fibonacci hashing (the top bits of the product) of the low 32 bits mixed with the high ones.
function slotOf(v: number, shift: number): number {
  const lo = v >>> 0;
  const hi = (v / 4294967296) >>> 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> shift;
}
