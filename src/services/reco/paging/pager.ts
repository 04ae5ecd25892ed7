// One page of a ranking: `amt` items that pass, from the cursor's position. Without reranking the
// cursor holds a position in the ranking, with it a position in the diversified order of the
// passing items (which is deterministic); either way with the model it belongs to, so pages never
// repeat an item. A page answers in the same tick unless its ranking must come from the scoring pool
// (engine/scoring/scorer.ts).
import { LRUCache } from 'lru-cache';
import { wrongData } from '../../../errors/api-error.js';
import type { Ranking, RankSpec } from '../../../engine/scoring/rankings.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { Claims } from '../../../contract/claims.js';
import { decodeCursor, encodeCursor } from '../../ids/cursors.js';
import { shownId } from '../../ids/request-ids.js';
import type { IdValue } from '../../ids/id-types.js';
import type { Maybe } from '../maybe.js';
import type { RankingKey, Scorer } from '../../../engine/scoring/scorer.js';
import { RankingWalk, type PassMemo } from './ranking-walk.js';
import { diversify } from './reranking.js';
import { SHOWN, type RecoAnswer, type Want } from '../request/request.js';
import { ROTATED_CURSOR, type Rotated } from '../../outcomes/rotation.js';
import { explanations, type Because, type Source } from './explanations.js';
import type { Shape } from './shaping.js';

const CACHED_ORDERS = 20_000;
// Candidates the diversity reranking chooses among at each step; fixed, so that the order (and so
// every page of it) does not depend on the page size.
const DIVERSITY_WINDOW = 32;
// Cursor texts kept: positions below CURSORS_KEPT, for up to CURSOR_MODELS models and listings.
const CURSORS_KEPT = 1024;
const CURSOR_MODELS = 64;

// One page to answer: the ranking to walk and what shapes it.
export interface PageJob {
  auth: Claims;
  model: LoadedModel;
  key: RankingKey | undefined; // of the cached ranking (undefined: not cached)
  spec: RankSpec;
  q: Want;
  shape: Shape;
  exclude: Set<number> | undefined;
  warnings: string[];
  source?: Source; // where the ranking comes from, when its spec does not say (explanations.ts)
  because?: Because; // the profile it was made from
  // Ranking positions from stopAt on need more exclusions than `exclude` (a user's list holds only
  // items they had not rated, past it their ratings must be read): the page is then NEEDS_RATINGS.
  stopAt?: number;
}

// What a page answers instead when its walk reached PageJob.stopAt: the asker reads the user's
// ratings and asks again with them.
export const NEEDS_RATINGS = Symbol("needs the user's ratings");
export type NeedsRatings = typeof NEEDS_RATINGS;

// A diversified order (a prefix of every longer one: each step looks at the same window of candidates)
// and what the walk behind it found.
interface Diversified {
  order: number[];
  candidates: number;
  exhausted: boolean;
}

// What a page needs when the ranking at hand is too shallow: one of this depth, which only the
// scoring pool may make.
class NeedRanking {
  constructor(readonly depth: number) {}
}

export class Pager {
  // Passing positions per exclusion set and ranking; kept as long as the set is (a cached profile's).
  private readonly passing = new WeakMap<Set<number>, Map<string, PassMemo>>();
  // Passing positions per ranking and filtering shape.
  private readonly filtered = new LRUCache<string, PassMemo>({ max: CACHED_ORDERS });
  private readonly diversified = new LRUCache<string, Diversified>({ max: CACHED_ORDERS });
  private readonly cursors = new Map<number, string[]>();

  constructor(private readonly scorer: Scorer) {}

  // The page: in the same tick unless a deeper ranking must come from the scoring pool; NEEDS_RATINGS
  // when the job has a stopAt and the walk reached it.
  page(job: PageJob & { stopAt: number }): Maybe<RecoAnswer | NeedsRatings>;
  page(job: PageJob): Maybe<RecoAnswer>;
  page(job: PageJob): Maybe<RecoAnswer | NeedsRatings> {
    const out = this.pageOf(job, undefined);
    return out instanceof NeedRanking ? this.pageLater(job, out.depth) : out;
  }

  // Pages again with each deeper ranking the scoring pool makes, until one is deep enough.
  private async pageLater(job: PageJob, depth: number): Promise<RecoAnswer | NeedsRatings> {
    for (;;) {
      const out = this.pageOf(job, await this.scorer.fromPool(job.model, job.spec, depth));
      if (!(out instanceof NeedRanking)) return out;
      depth = out.depth;
    }
  }

  // The page, or what it needs. deeper: a ranking the scoring pool made.
  private pageOf(job: PageJob, deeper: Ranking | undefined): RecoAnswer | NeedRanking | NeedsRatings {
    const { auth, model, key, spec, q, shape, exclude, warnings, stopAt } = job;
    const stamp = Math.round(model.meta.timestamp * 1000);
    const rotated = q.rotated;
    const tag = rotated ? ROTATED_CURSOR : shape.rules ? ('d1' as const) : ('r1' as const);
    let pos = 0;
    if (q.cursor) {
      const [at, of] = decodeCursor(tag, q.cursor, rotated ? 3 : 2, Number.MAX_SAFE_INTEGER);
      if (of !== stamp)
        throw wrongData('WRONG_PARAMETER', 'this cursor belongs to an earlier model: start again without it', { field: 'cursor' });
      pos = at!;
    }
    const walk = new RankingWalk(this.scorer.ranking(model, spec, key, deeper), exclude, shape.keep, stopAt);
    // A user's rated items often fill the top of their ranking: with exclusion alone, the positions
    // that pass are kept with the (cached) exclusion set, so later requests do not skip them again.
    if (exclude && !shape.keep && key !== undefined) walk.memoPastList(() => this.passMemo(exclude, walk.ranking.cacheKey!));
    // Likewise the positions that pass filters alone, kept per ranking and shape (filters and catalogue
    // version): an item's list may hold few that pass, and the walk past it is then long.
    else if (!exclude && shape.keep && shape.key !== undefined && key !== undefined)
      walk.memoPastList(() => this.filterMemo(`${walk.ranking.cacheKey!} ${shape.key}`));
    let items: number[];
    let next: number;
    let more: boolean;
    let before: number[] | undefined; // the passing order, where reranking or rotation changed it
    let pushed: Set<number> | undefined;
    if (rotated) {
      const r = rotatedOrder(walk, model, rotated, pos + q.amt + (shape.rules ? DIVERSITY_WINDOW : 0));
      if (!r) return walk.stopped ? NEEDS_RATINGS : new NeedRanking(walk.need);
      before = r.walked;
      pushed = r.pushed;
      const order = shape.rules ? diversify(r.order, shape.rules, shape.valueOf!, pos + q.amt, DIVERSITY_WINDOW) : r.order;
      items = order.slice(pos, pos + q.amt);
      next = pos + items.length;
      more = items.length === q.amt && (order.length > next || !r.exhausted);
    } else if (!shape.rules) {
      const w = walk.walk(pos, q.amt);
      if (!w) return walk.stopped ? NEEDS_RATINGS : new NeedRanking(walk.need);
      items = w.items;
      next = w.next;
      more = items.length === q.amt && !w.exhausted;
    } else {
      // Without exclusions (which are per user) the order is kept with the ranking and the shape.
      const orderKey = key !== undefined && !exclude && shape.key !== undefined ? `${walk.ranking.cacheKey} ${shape.key}` : undefined;
      let d = orderKey === undefined ? undefined : this.diversified.get(orderKey);
      if (!d || (d.order.length < pos + q.amt && !(d.exhausted && d.order.length === d.candidates))) {
        const window = DIVERSITY_WINDOW;
        const w = walk.walk(0, pos + q.amt + window);
        if (!w) return walk.stopped ? NEEDS_RATINGS : new NeedRanking(walk.need);
        d = {
          order: diversify(w.items, shape.rules, shape.valueOf!, pos + q.amt, window),
          candidates: w.items.length,
          exhausted: w.exhausted,
        };
        if (orderKey !== undefined) this.diversified.set(orderKey, d);
      }
      items = d.order.slice(pos, pos + q.amt);
      before = q.reasons ? walk.walk(0, d.candidates)?.items : undefined;
      next = pos + items.length;
      more = items.length === q.amt && (d.candidates > next || !d.exhausted);
    }
    return {
      items_id: shownItems(auth, model, items),
      next_cursor: !more ? '' : rotated ? encodeCursor(tag, [next, stamp, rotated.t0]) : this.cursor(tag as 'r1' | 'd1', next, stamp),
      warnings,
      ...(q.explain ? { evaluated_scenarios: q.evaluated } : {}),
      ...(q.reasons && {
        explanations: explanations({ ...job, head: walk.ranking.head?.items, items, from: pos, before, pushed }),
      }),
      [SHOWN]: { model, rows: items, from: pos, plan: q },
    };
  }

  // The cursor of a page end: the same few (first pages end at the same positions) are kept as text
  // per model and listing, for positions up to CURSORS_KEPT.
  private cursor(tag: 'r1' | 'd1', next: number, stamp: number): string {
    if (next >= CURSORS_KEPT) return encodeCursor(tag, [next, stamp]);
    const key = tag === 'r1' ? stamp : -stamp;
    let texts = this.cursors.get(key);
    if (texts === undefined) {
      if (this.cursors.size >= CURSOR_MODELS) this.cursors.clear();
      this.cursors.set(key, (texts = []));
    }
    return (texts[next] ??= encodeCursor(tag, [next, stamp]));
  }

  private filterMemo(key: string): PassMemo {
    let memo = this.filtered.get(key);
    if (!memo) this.filtered.set(key, (memo = { positions: [], scanned: 0 }));
    return memo;
  }

  private passMemo(exclude: Set<number>, rankingKey: string): PassMemo {
    let byRanking = this.passing.get(exclude);
    if (!byRanking) this.passing.set(exclude, (byRanking = new Map()));
    let memo = byRanking.get(rankingKey);
    if (!memo) byRanking.set(rankingKey, (memo = { positions: [], scanned: 0 }));
    return memo;
  }
}

// The passing items in their rotated order (rotation.ts): one shown to the user before, at rank k
// (1-based) among them, goes just below rank k ÷ (1 − rate), or out at rate 1. Walks deep
// enough that at least `need` items are placed where nothing deeper could pass them. undefined: the
// walk needs a deeper ranking or reached its stop (as RankingWalk.walk).
function rotatedOrder(walk: RankingWalk, model: LoadedModel, rotated: Rotated, need: number) {
  const pushed = new Set<number>();
  for (const item of rotated.items) {
    const row = model.itemIndex.get(item);
    if (row !== undefined) pushed.add(row);
  }
  for (let depth = need + Math.min(pushed.size, DIVERSITY_WINDOW); ; depth *= 2) {
    const w = walk.walk(0, depth);
    if (!w) return undefined;
    const placed: [number, number, number][] = [];
    w.items.forEach((row, p) => {
      const at = !pushed.has(row) ? p : rotated.rate >= 1 ? Infinity : (p + 1) / (1 - rotated.rate) - 0.5;
      if (at < depth || (w.exhausted && at !== Infinity)) placed.push([at, p, row]);
    });
    if (placed.length >= need || w.exhausted) {
      placed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      return { order: placed.map((x) => x[2]), exhausted: w.exhausted, walked: w.items, pushed };
    }
  }
}

// The JSON form of a model's item rows, made once per row and model (a database's id types never
// change): answering parses no id.
const shownRows = new WeakMap<LoadedModel, IdValue[]>();
function shownItems(auth: Claims, model: LoadedModel, rows: number[]): IdValue[] {
  let shown = shownRows.get(model);
  if (!shown) shownRows.set(model, (shown = new Array<IdValue>(model.itemIds.length)));
  // Packed (pushed, not preallocated): JSON.stringify takes its fast path only over packed arrays.
  const out: IdValue[] = [];
  for (const row of rows) out.push((shown[row] ??= shownId(auth, 'item', model.itemIds[row]!)));
  return out;
}
