// The walk over one ranking for the items that pass a page's exclusions and filters; the scorer
// deepens the ranking as the walk uses it up.
import type { WalkedRanking } from '../../../engine/scoring/scorer.js';

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
  // Set when the walk stopped at `stopAt`.
  stopped = false;
  // Ranking positions that pass (pager.ts keeps them with the exclusion set or the filters), walked
  // instead of testing each position again; memoPast makes it once the walk goes past the list.
  private memo: PassMemo | undefined;
  private memoPast: (() => PassMemo) | undefined;

  constructor(
    readonly ranking: WalkedRanking,
    private readonly exclude: Set<number> | undefined,
    private readonly keep: ((item: number) => boolean) | undefined,
    private readonly stopAt = Infinity, // positions from here on need what the page was not given (pager.ts PageJob.stopAt)
  ) {}

  // Set when the walk needs a ranking deeper than may be made on the event loop: its depth.
  get need(): number {
    return this.ranking.need;
  }

  // The memo of the positions that pass, for a walk that goes past the model's list (at once when
  // the ranking has none; never when the list is all of it). A walk within the list tests at most
  // its length of items (a user's list holds no rated item), and filter memos made for every item
  // turned their cache over on every request with random items of 100k (a tenth of a filtered
  // page's CPU).
  memoPastList(memo: () => PassMemo): void {
    const head = this.ranking.head;
    if (head === undefined) this.memo = memo();
    else if (!head.complete) this.memoPast = memo;
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
          out.push(this.ranking.held.items[at++]!);
          continue;
        }
        if (!this.reach(memo.scanned, want)) break;
        if (this.passes(this.ranking.held.items[memo.scanned]!)) memo.positions.push(memo.scanned);
        memo.scanned++;
      }
      if (this.need || this.stopped) return undefined;
      if (out.length < want) at = Math.max(at, memo.scanned, from);
    } else {
      const past = this.memoPast === undefined ? Infinity : this.ranking.head!.items.length;
      while (out.length < want && this.reach(at, want)) {
        if (at >= past) {
          // Past the list: walked again with the memo, from the start.
          this.memo = this.memoPast!();
          this.memoPast = undefined;
          return this.walk(from, want);
        }
        const i = this.ranking.held.items[at++]!;
        if (this.passes(i)) out.push(i);
      }
      if (this.need || this.stopped) return undefined;
    }
    this.reach(at, want);
    if (this.need || this.stopped) return undefined;
    const r = this.ranking.held;
    return { items: out, next: at, exhausted: r.complete && at >= r.items.length };
  }

  private passes(i: number): boolean {
    return !this.exclude?.has(i) && (!this.keep || this.keep(i));
  }

  // Is ranking position `at` held (the scorer deepening the ranking when it can)? false as well at
  // `stopAt` and when the deeper ranking may not be made here.
  private reach(at: number, want: number): boolean {
    if (at >= this.stopAt) {
      this.stopped = true;
      return false;
    }
    return this.ranking.reach(at, want);
  }
}

// The first index of a sorted list whose value is at least v.
function lowerBound(sorted: number[], v: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
