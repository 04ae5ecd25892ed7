// The walk over one ranking for the items that pass a page's exclusions and filters, deepening the
// ranking (fourfold each time) as the walk uses it up.
import { listHead, type Ranking, type RankSpec } from '../../engine/scoring/rankings.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { RankingCache } from './ranking-cache.js';

// Rankings start this deep and grow fourfold when filters or pages use them up. A vector's ranking
// costs more the deeper it goes (bounded-top.ts: the lower its k-th best, the more rows may still
// enter), so it starts at what the page asks for (twice its items); so does a session's ranking from
// its candidates. A random session ranked 20 deep for a page of 10 instead of 32 took 13.5 µs
// instead of 16.5 (bench/RESULTS.md).
const FIRST_DEPTH = 128, FIRST_VECTOR_DEPTH = 16;

// A ranking's name in the cache: text, or a model row's ranking (an item's neighbours, a user's by
// their factors) as its tag and row, made into text only when a walk goes past the precomputed list.
// V8 keeps a number's text in its number-string cache, so `i${row}` made on every request with random
// rows survived scavenges into the old generation (bench/RESULTS.md, 2026-11-27, session 16).
export type RankingKey = string | RowKey;
export class RowKey {
  constructor(
    readonly tag: string,
    readonly row: number,
  ) {}

  toString(): string {
    return this.tag + this.row;
  }
}

// Ranking positions that pass an exclusion set: the positions found and how far the ranking was scanned.
export interface PassMemo {
  positions: number[];
  scanned: number;
}

// What a walk found: the passing items, the ranking position after the last one looked at, and
// whether the ranking has nothing after it.
export interface WalkedStretch {
  items: number[];
  next: number;
  exhausted: boolean;
}

export class RankingWalk {
  // Set when the walk stopped for a ranking deeper than may be made here: its depth.
  need = 0;
  // Set when the walk stopped at `stopAt`.
  stopped = false;
  // Ranking positions that pass (pager.ts keeps them with the exclusion set or the filters), walked
  // instead of testing each position again; memoPast makes it once the walk goes past the list.
  private memo: PassMemo | undefined;
  private memoPast: (() => PassMemo) | undefined;
  private r: Ranking | undefined;
  // The model's precomputed list for the spec, walked first: most pages need nothing deeper, and
  // then neither a ranking nor a cache lookup (nor the key's text) is made.
  private readonly head: Ranking | undefined;
  private key: string | undefined;

  constructor(
    private readonly cache: RankingCache,
    private readonly model: LoadedModel,
    private readonly spec: RankSpec,
    private readonly rankingKey: RankingKey | undefined, // of the ranking within its model (undefined: not cached)
    private readonly deeper: Ranking | undefined, // a ranking the scoring pool made for this walk
    private readonly exclude: Set<number> | undefined,
    private readonly keep: ((item: number) => boolean) | undefined,
    private readonly stopAt = Infinity, // positions from here on need what the page was not given (pager.ts PageJob.stopAt)
  ) {
    this.head = deeper === undefined ? listHead(model.views, spec) : undefined;
    if (this.head !== undefined) cache.paths.precomputed++;
    this.r = this.head;
  }

  // The ranking's key in the cache (undefined: not cached), made on first use.
  get cacheKey(): string | undefined {
    if (this.rankingKey === undefined) return undefined;
    return (this.key ??= `${this.model.id} ${this.rankingKey}`);
  }

  // The memo of the positions that pass, for a walk that goes past the model's list (at once when
  // the ranking has none; never when the list is all of it). A walk within the list tests at most
  // its length of items (a user's list holds no rated item), and filter memos made for every item
  // turned their cache over on every request with random items of 100k (a tenth of a filtered
  // page's CPU, bench/RESULTS.md).
  memoPastList(memo: () => PassMemo): void {
    if (this.head === undefined) this.memo = memo();
    else if (!this.head.complete) this.memoPast = memo;
  }

  // The passing items from ranking position `from` on, `want` of them at most; undefined when the
  // walk needs a deeper ranking than may be made here (`need`) or reached `stopAt` (`stopped`).
  walk(from: number, want: number): WalkedStretch | undefined {
    const out: number[] = [];
    let at = from;
    const memo = this.memo;
    if (memo) {
      let k = lowerBound(memo.positions, from);
      while (out.length < want) {
        if (k < memo.positions.length) {
          at = memo.positions[k++]!;
          if (at < from) continue; // scanned just now, before the cursor
          if (!this.reach(at, want)) break; // the ranking was dropped from the cache: computed again, the same
          out.push(this.r!.items[at++]!);
          continue;
        }
        if (!this.reach(memo.scanned, want)) break;
        if (this.passes(this.r!.items[memo.scanned]!)) memo.positions.push(memo.scanned);
        memo.scanned++;
      }
      if (this.need || this.stopped) return undefined;
      if (out.length < want) at = Math.max(at, memo.scanned, from);
    } else {
      const past = this.memoPast === undefined ? Infinity : this.head!.items.length;
      while (out.length < want && this.reach(at, want)) {
        if (at >= past) {
          // Past the list: walked again with the memo, from the start.
          this.memo = this.memoPast!();
          this.memoPast = undefined;
          return this.walk(from, want);
        }
        const i = this.r!.items[at++]!;
        if (this.passes(i)) out.push(i);
      }
      if (this.need || this.stopped) return undefined;
    }
    this.reach(at, want);
    if (this.need || this.stopped) return undefined;
    const r = this.r!;
    return { items: out, next: at, exhausted: r.complete && at >= r.items.length };
  }

  private passes(i: number): boolean {
    return !this.exclude?.has(i) && (!this.keep || this.keep(i));
  }

  // Is ranking position `at` held (deepening the ranking when it can go further)? false as well when
  // the deeper ranking may not be made here.
  private reach(at: number, want: number): boolean {
    if (at >= this.stopAt) {
      this.stopped = true;
      return false;
    }
    let r = this.r;
    if (r === undefined || (r === this.head && at >= r.items.length && !r.complete)) {
      const cached = this.cacheKey === undefined ? undefined : this.cache.get(this.cacheKey);
      if (cached !== undefined && (r === undefined || cached.items.length > r.items.length || cached.complete)) {
        r = this.r = cached;
        this.cache.paths.cached++;
      }
    }
    while (!r || (at >= r.items.length && !r.complete)) {
      const first = this.spec.kind === 'vector' || this.spec.kind === 'session' ? FIRST_VECTOR_DEPTH : FIRST_DEPTH;
      const depth = Math.max(first, (r?.items.length ?? 0) * 4, at + 2 * want);
      r = this.cache.deepened(this.model, this.spec, depth, this.deeper);
      if (!r) {
        this.need = depth;
        return false;
      }
      this.r = r;
      if (this.cacheKey !== undefined) this.cache.set(this.cacheKey, r);
    }
    return at < r.items.length;
  }
}

// The first index of a sorted list whose value is at least v.
function lowerBound(sorted: number[], v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
