// Variable-length segments of one growing typed array, addressed per index; a changed segment is
// appended and the old one becomes garbage, reclaimed when it outweighs the live data.
export class Segments<A extends Uint8Array | Float64Array> {
  start = new Float64Array(0); // -1: no segment
  len = new Uint32Array(0);
  private used = 0;
  private garbage = 0;

  constructor(
    public data: A,
    private readonly make: (n: number) => A,
  ) {}

  grow(cap: number): void {
    if (cap <= this.start.length) return;
    const start = new Float64Array(cap).fill(-1);
    start.set(this.start);
    const len = new Uint32Array(cap);
    len.set(this.len);
    this.start = start;
    this.len = len;
  }

  has(i: number): boolean {
    return i < this.start.length && this.start[i]! >= 0;
  }

  get(i: number): A {
    const s = this.start[i]!;
    return this.data.subarray(s, s + this.len[i]!) as A;
  }

  set(i: number, values: ArrayLike<number>): void {
    this.clear(i);
    if (this.used + values.length > this.data.length) this.reserve(values.length);
    this.data.set(values, this.used);
    this.start[i] = this.used;
    this.len[i] = values.length;
    this.used += values.length;
  }

  clear(i: number): void {
    if (!this.has(i)) return;
    this.garbage += this.len[i]!;
    this.start[i] = -1;
    this.len[i] = 0;
  }

  private reserve(extra: number): void {
    const live = this.used - this.garbage;
    const compact = this.garbage > live;
    const data = this.make(Math.max(1024, (live + extra) * 2, compact ? 0 : this.data.length * 2));
    if (compact) {
      let at = 0;
      for (let i = 0; i < this.start.length; i++) {
        if (this.start[i]! < 0) continue;
        data.set(this.get(i), at);
        this.start[i] = at;
        at += this.len[i]!;
      }
      this.used = at;
      this.garbage = 0;
    } else {
      data.set(this.data.subarray(0, this.used));
    }
    this.data = data;
  }
}
