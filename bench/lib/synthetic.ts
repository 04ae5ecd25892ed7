// A synthetic catalogue with power-law popularity and activity (Synthetic): items, users and ratings generated deterministically, a batch at a time.
//
// Sizes from BENCH_SYNTH_ITEMS (100,000), BENCH_SYNTH_USERS (1,000,000), BENCH_SYNTH_RATINGS (20,000,000),
// seed BENCH_SYNTH_SEED (1). The same sizes and seed give the same data on every machine.
//
// - Items 1 … N. Popularity is Zipf–Mandelbrot over a popularity rank, p(rank r) ∝ 1 / (r + 1 + 10),
//   exponent 1; ranks are shuffled onto the ids, so popularity is not the id order. The offset keeps the
//   head realistic: pure Zipf would give the top item 1/H(N) ≈ 8 % of all ratings (at 20M ratings more
//   raters than a million users hold); with it, the top item gets ≈ 0.5 % (100,000 items) to 1 % (5,000).
// - Each item has two properties for filters: `category` (one of 50 names, Zipf over them, so
//   `category-00` holds ≈ 22 % of the items) and `year` (1950–2025, recent years more common: ≈ 69 %
//   from 1990 on), and a hidden quality that the ratings follow loosely.
// - Users 1 … U. Activity follows a power law too: user of activity rank r has 1 + extra(r) ratings,
//   extra(r) ∝ 1 / (r + r0), with r0 chosen so the most active user has `cap` extra ratings (10,000 or a
//   tenth of the items, whichever is smaller) and the counts add up to exactly R. At the default sizes:
//   2,041 users rate 1,000 items or more, the median user six, the least active three. Ranks are
//   shuffled onto the ids as well.
// - A user's items are distinct, drawn by popularity. A rating is an integer 1–10: the item's quality
//   plus the user's bias plus noise, rounded and clamped. Timestamps: each user starts at a random time
//   in the two years before 2025-01-01 and rates at random times from then on.
//
// Each user's ratings come from a generator seeded by the seed and the user id, so any user's ratings
// can be regenerated alone (ratingsOf), and batches() streams them in user-id order through typed arrays:
// nothing per rating is kept.
import { mulberry32 } from '../../native-free-kernels/random.js';

export interface SynthSizes {
  items: number;
  users: number;
  ratings: number;
  seed: number;
}

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

export function synthSizes(): SynthSizes {
  return {
    items: envInt('BENCH_SYNTH_ITEMS', 100_000, 10),
    users: envInt('BENCH_SYNTH_USERS', 1_000_000, 1),
    ratings: envInt('BENCH_SYNTH_RATINGS', 20_000_000, 1),
    seed: envInt('BENCH_SYNTH_SEED', 1, 0),
  };
}

export const CATEGORIES = Array.from({ length: 50 }, (_, k) => `category-${String(k).padStart(2, '0')}`);
export const YEAR_MIN = 1950;
export const YEAR_MAX = 2025;
// The filtered scenarios' two filters (reco-synthetic.ts's F, reco-dispatch-cost.ts): the commonest
// category (Zipf rank 0) and the years from FILTERED_YEAR_FROM.
export const FILTERED_CATEGORY = CATEGORIES[0]!;
export const FILTERED_YEAR_FROM = 1990;
export const SYNTH_FILTERS = `filters=category:eq:${FILTERED_CATEGORY}&filters=year:gte:${FILTERED_YEAR_FROM}`;

const POPULARITY_OFFSET = 10; // Zipf–Mandelbrot q: see the header
const MAX_USER_EXTRA = 10_000; // the most active user's ratings beyond the first (at most a tenth of the items)
const END = 1_735_689_600; // 2025-01-01T00:00:00Z
const SPAN = 2 * 365 * 86_400;
const MAX_TRIES = 64; // draws that hit the user's own items before falling back to a probe

// One batch of ratings, rows in user-id order (a user's ratings may continue in the next batch).
export interface RatingBatch {
  n: number;
  user: Uint32Array;
  item: Uint32Array;
  rating: Uint8Array;
  timestamp: Uint32Array;
}

// Fisher–Yates over 0 … n−1 (plus `base`).
function permutation(n: number, rand: () => number, base: number): Uint32Array {
  const p = new Uint32Array(n);
  for (let k = 0; k < n; k++) p[k] = k + base;
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    const t = p[k]!;
    p[k] = p[j]!;
    p[j] = t;
  }
  return p;
}

// Walker's alias table of weights w: draw k with probability w[k] / Σw in O(1) (two uniform numbers).
function aliasTable(w: Float64Array): { prob: Float64Array; alias: Uint32Array } {
  const n = w.length;
  let sum = 0;
  for (let k = 0; k < n; k++) sum += w[k]!;
  const prob = new Float64Array(n);
  const alias = new Uint32Array(n);
  const small = new Uint32Array(n);
  const large = new Uint32Array(n);
  let ns = 0,
    nl = 0;
  for (let k = 0; k < n; k++) {
    prob[k] = (w[k]! * n) / sum;
    if (prob[k]! < 1) small[ns++] = k;
    else large[nl++] = k;
  }
  while (ns > 0 && nl > 0) {
    const s = small[--ns]!,
      l = large[nl - 1]!;
    alias[s] = l;
    prob[l] = prob[l]! + prob[s]! - 1;
    if (prob[l]! < 1) {
      nl--;
      small[ns++] = l;
    }
  }
  while (nl > 0) prob[large[--nl]!] = 1;
  while (ns > 0) prob[small[--ns]!] = 1; // rounding leftovers
  return { prob, alias };
}

// About N(0, 1): the sum of three uniforms, centred and scaled (cheap, bounded at ±3).
const normalish = (rand: () => number) => (rand() + rand() + rand() - 1.5) * 2;

export class Synthetic {
  readonly sizes: SynthSizes;
  readonly categoryOf: Uint8Array; // by item id: index into CATEGORIES
  readonly yearOf: Int16Array; // by item id
  readonly itemByRank: Uint32Array; // popularity rank → item id
  readonly cap: number; // the most active user's extra ratings
  readonly mostActiveUser: number;
  private readonly quality: Float32Array; // by item id
  private readonly prob: Float64Array; // alias table over popularity ranks
  private readonly alias: Uint32Array;
  private readonly userRank: Uint32Array; // by user id − 1: activity rank
  private readonly r0: number;
  private readonly scale: number;
  private readonly stamp: Uint32Array; // by rank: the ratingsOf call that took it (distinct items per user)
  private calls = 0;

  constructor(sizes: SynthSizes) {
    const { items: N, users: U, ratings: R } = sizes;
    if (R < U) throw new Error(`every user has a rating: BENCH_SYNTH_RATINGS (${R}) must be at least BENCH_SYNTH_USERS (${U})`);
    this.sizes = sizes;
    const rand = mulberry32(sizes.seed);
    this.itemByRank = permutation(N, rand, 1);
    const w = new Float64Array(N);
    for (let r = 0; r < N; r++) w[r] = 1 / (r + 1 + POPULARITY_OFFSET);
    ({ prob: this.prob, alias: this.alias } = aliasTable(w));
    this.stamp = new Uint32Array(N);

    const cw = new Float64Array(CATEGORIES.length);
    for (let k = 0; k < cw.length; k++) cw[k] = 1 / (k + 1);
    const categories = aliasTable(cw);
    this.categoryOf = new Uint8Array(N + 1);
    this.yearOf = new Int16Array(N + 1);
    this.quality = new Float32Array(N + 1);
    for (let id = 1; id <= N; id++) {
      const k = Math.floor(rand() * cw.length);
      this.categoryOf[id] = rand() < categories.prob[k]! ? k : categories.alias[k]!;
      const u = rand();
      this.yearOf[id] = YEAR_MAX - Math.floor((YEAR_MAX - YEAR_MIN + 1) * u * u);
      this.quality[id] = 6.5 + 1.2 * normalish(rand);
    }

    this.userRank = permutation(U, rand, 0);
    this.mostActiveUser = this.userRank.indexOf(0) + 1;
    // extra(r) = F(r + 1) − F(r), F(r) = ⌊scale · ln(1 + r / r0)⌋, F(U) = R − U: exact total, power law
    // with exponent 1 beyond r0. r0 solves (R − U) · ln(1 + 1/r0) / ln(1 + U/r0) = cap (decreasing in r0,
    // from R − U at 0 to the mean (R − U) / U at infinity: a cap below the mean makes everyone average).
    const extra = R - U;
    const mean = extra / U;
    this.cap = Math.max(Math.ceil(mean), Math.min(MAX_USER_EXTRA, Math.floor(N / 10)));
    if (mean + 1 > N) throw new Error(`${R} ratings of ${U} users over ${N} items: more ratings per user than items`);
    const top = (r0: number) => (extra * Math.log1p(1 / r0)) / Math.log1p(U / r0);
    let lo = 1e-9,
      hi = 1e15;
    for (let k = 0; k < 200; k++) {
      const mid = Math.sqrt(lo * hi);
      if (top(mid) > this.cap) lo = mid;
      else hi = mid;
    }
    this.r0 = hi;
    this.scale = extra / Math.log1p(U / this.r0);
    if (this.countOf(this.mostActiveUser) > N)
      throw new Error(`the most active user would rate ${this.countOf(this.mostActiveUser)} of ${N} items`);
  }

  private cumulative(r: number): number {
    if (r >= this.sizes.users) return this.sizes.ratings - this.sizes.users;
    return Math.floor(this.scale * Math.log1p(r / this.r0));
  }

  // How many ratings user `user` (1 … U) has.
  countOf(user: number): number {
    const r = this.userRank[user - 1]!;
    return 1 + this.cumulative(r + 1) - this.cumulative(r);
  }

  // The item of popularity rank 0.
  get hottestItem(): number {
    return this.itemByRank[0]!;
  }

  // Writes user `user`'s ratings at `at` in the columns; returns how many (countOf(user)).
  ratingsOf(user: number, item: Uint32Array, rating: Uint8Array, timestamp: Uint32Array, at = 0): number {
    const N = this.sizes.items;
    const n = this.countOf(user);
    if (at + n > item.length) throw new Error(`room for ${item.length - at} ratings, user ${user} has ${n}`);
    const rand = mulberry32((Math.imul(user, 0x9e3779b1) ^ Math.imul(this.sizes.seed + 1, 0x85ebca77)) >>> 0);
    const call = ++this.calls;
    const { prob, alias, stamp, itemByRank, quality } = this;
    const bias = 0.8 * normalish(rand);
    const start = END - SPAN + Math.floor(rand() * SPAN * 0.95);
    const window = END - start;
    for (let j = 0; j < n; j++) {
      let r = 0;
      let tries = 0;
      for (;;) {
        const k = Math.floor(rand() * N);
        r = rand() < prob[k]! ? k : alias[k]!;
        if (stamp[r] !== call) break;
        if (++tries === MAX_TRIES) {
          // The user holds most of what popularity offers: the next free rank after a random one.
          r = Math.floor(rand() * N);
          while (stamp[r] === call) r = r + 1 === N ? 0 : r + 1;
          break;
        }
      }
      stamp[r] = call;
      const id = itemByRank[r]!;
      const v = Math.round(quality[id]! + bias + 1.5 * normalish(rand));
      item[at + j] = id;
      rating[at + j] = v < 1 ? 1 : Math.min(v, 10);
      timestamp[at + j] = start + Math.floor(rand() * window);
    }
    return n;
  }

  // Every rating, users in id order, `size` a batch (the last may be shorter); fresh arrays per batch,
  // so a batch may be kept while the next is made.
  *batches(size: number): Generator<RatingBatch> {
    const U = this.sizes.users;
    const scratch = { item: new Uint32Array(this.cap + 1), rating: new Uint8Array(this.cap + 1), timestamp: new Uint32Array(this.cap + 1) };
    const fresh = (): RatingBatch => ({
      n: 0,
      user: new Uint32Array(size),
      item: new Uint32Array(size),
      rating: new Uint8Array(size),
      timestamp: new Uint32Array(size),
    });
    let b = fresh();
    for (let u = 1; u <= U; u++) {
      const n = this.ratingsOf(u, scratch.item, scratch.rating, scratch.timestamp);
      for (let j = 0; j < n; ) {
        const take = Math.min(n - j, size - b.n);
        b.user.fill(u, b.n, b.n + take);
        b.item.set(scratch.item.subarray(j, j + take), b.n);
        b.rating.set(scratch.rating.subarray(j, j + take), b.n);
        b.timestamp.set(scratch.timestamp.subarray(j, j + take), b.n);
        b.n += take;
        j += take;
        if (b.n === size) {
          yield b;
          b = fresh();
        }
      }
    }
    if (b.n > 0)
      yield {
        n: b.n,
        user: b.user.subarray(0, b.n),
        item: b.item.subarray(0, b.n),
        rating: b.rating.subarray(0, b.n),
        timestamp: b.timestamp.subarray(0, b.n),
      };
  }

  // The items user `user` rated.
  itemsOf(user: number): Set<number> {
    const n = this.countOf(user);
    const item = new Uint32Array(n);
    this.ratingsOf(user, item, new Uint8Array(n), new Uint32Array(n));
    return new Set(item);
  }
}

// Every rating at once as a training snapshot (rows: ids − 1), for benches that train in-process.
export function trainingSnapshot(synth: Synthetic): {
  users: Uint32Array;
  items: Uint32Array;
  ratings: Float32Array;
  timestamps: Float64Array;
} {
  const batch = synth.batches(synth.sizes.ratings).next().value!;
  const n = batch.n;
  return {
    users: Uint32Array.from(batch.user.subarray(0, n), (u: number) => u - 1),
    items: Uint32Array.from(batch.item.subarray(0, n), (i: number) => i - 1),
    ratings: Float32Array.from(batch.rating.subarray(0, n)),
    timestamps: Float64Array.from(batch.timestamp.subarray(0, n)),
  };
}
