// Rankings per model and query, kept so that later pages and other requests for the same query walk
// the same ranking; each is made on the event loop when it is cheap, in the scoring pool otherwise,
// and on a later turn when this turn has had its share of ranking time (turn-budget.ts).
import { LRUCache } from 'lru-cache';
import { rankWithin, type Ranking, type RankSpec } from '../../engine/scoring/rankings.js';
import type { ScoringPaths, ScoringPool } from '../../engine/scoring/pool.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { Maybe } from './maybe.js';
import type { TurnBudget } from './turn-budget.js';

const CACHED_RANKINGS = 20_000;

export class RankingCache {
  private readonly rankings = new LRUCache<string, Ranking>({ max: CACHED_RANKINGS });
  // Specs whose ranking `deepened` put off for the turn's budget, each with how many times: `later`
  // makes those on a later turn, any other in the scoring pool. A count, since a spec may be shared
  // (the popular items').
  private readonly putOff = new WeakMap<RankSpec, number>();
  // Specs made on a later turn before: their next ranking is a resumed step of the same request (a
  // shared spec, the popular items', may so go first for another request: it is cheap).
  private readonly waited = new WeakSet<RankSpec>();

  constructor(
    private readonly scoring: ScoringPool,
    // Rankings of up to this many multiply-adds run on the event loop; larger ones in the scoring
    // pool. At the default (about 0.3 ms) a pool round trip costs as much as the ranking, and under
    // load the pool puts the other cores to work (bench/RESULTS.md).
    private readonly inlineWork: number,
    private readonly turns: TurnBudget,
  ) {}

  get(key: string): Ranking | undefined {
    return this.rankings.get(key);
  }

  get paths(): ScoringPaths {
    return this.scoring.paths;
  }

  set(key: string, r: Ranking): void {
    this.rankings.set(key, r);
  }

  // A ranking at least `depth` deep (or complete): `deeper` when it is (`later` made it), else one
  // made here; undefined when `later` must make it (too large for the event loop, or this turn's
  // ranking time is spent).
  deepened(model: LoadedModel, spec: RankSpec, depth: number, deeper: Ranking | undefined): Ranking | undefined {
    if (deeper && (deeper.complete || deeper.items.length >= depth)) return deeper;
    if (!this.mayRunNow(spec)) {
      this.putOff.set(spec, (this.putOff.get(spec) ?? 0) + 1);
      return undefined;
    }
    return this.inline(model, spec, depth);
  }

  // A ranking `depth` deep, here, on a later turn or from the scoring pool; not kept.
  ranking(model: LoadedModel, spec: RankSpec, depth: number): Maybe<Ranking> {
    if (!this.mayRunNow(spec)) return this.onLaterTurn(model, spec, depth);
    return this.inline(model, spec, depth) ?? this.scoring.rank(model, spec, depth);
  }

  // The ranking `deepened` did not make: on a later turn when it put it off, else (or when it proves
  // too large there) from the scoring pool.
  later(model: LoadedModel, spec: RankSpec, depth: number): Promise<Ranking> {
    const n = this.putOff.get(spec);
    if (n === undefined) return this.scoring.rank(model, spec, depth);
    if (n > 1) this.putOff.set(spec, n - 1);
    else this.putOff.delete(spec);
    return this.onLaterTurn(model, spec, depth);
  }

  // Only sessions' rankings wait for a later turn. With every inline ranking budgeted, filtered item
  // pages (a fifth of items need one deeper ranking, ~0.9 ms, on their first request) had a wrk p99
  // of 24 ms against 5.5 without, and a loop-delay p99 of 11 ms against 3, even with waiting bounded
  // at MAX_WAIT_MS (bench/RESULTS.md, 2026-11-27 third session): cheap pages never ask the budget,
  // so while those rankings wait the poll phases keep answering the cheap ones. Sessions, all
  // expensive, gain from it (1.3x the requests, a loop-delay p99 of 4 ms instead of 10-12).
  private mayRunNow(spec: RankSpec): boolean {
    return spec.kind !== 'session' || this.turns.mayRun();
  }

  private async onLaterTurn(model: LoadedModel, spec: RankSpec, depth: number): Promise<Ranking> {
    const resumed = this.waited.has(spec);
    this.waited.add(spec);
    return (await this.turns.later(() => this.inline(model, spec, depth), resumed)) ?? this.scoring.rank(model, spec, depth);
  }

  private inline(model: LoadedModel, spec: RankSpec, depth: number): Ranking | undefined {
    const r = rankWithin(model, spec, depth, this.inlineWork);
    if (r !== undefined) this.scoring.paths.inline++;
    return r;
  }
}
