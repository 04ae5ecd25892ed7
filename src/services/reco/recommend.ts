// Recommendations from the served model, one method per endpoint: one ranking per query (cached per
// model version), then filters, exclusions and pagination over it. The endpoints live in their own
// files; this class makes the parts they share.
import type { ScoringPool } from '../../engine/scoring/pool.js';
import type { ModelRegistry } from '../../engine/model/registry.js';
import type { Claims } from '../../contract/claims.js';
import type { DatabasesStore } from '../../store/databases-store.js';
import type { EntitiesStore } from '../../store/entities-store.js';
import type { RatingsStore } from '../../store/ratings-store.js';
import type { TableKind } from '../../store/tables-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import { DatabaseGone } from './database-gone.js';
import type { InteractionRuleService } from '../feedback/interaction-rules.js';
import type { ProfileCache } from '../feedback/profile-cache.js';
import { groupToItems } from './group-to-items.js';
import { itemToItems } from './item-to-items.js';
import { Pager } from './paging.js';
import type { RecoPlanner } from './planner.js';
import { precomputed } from './precomputed-reads.js';
import type { TableService } from './precomputed-tables.js';
import { sessionToItems, userToItems } from './profile-to-items.js';
import { sessionToProperties, userToProperties } from './profile-to-properties.js';
import { propertiesToItems } from './properties-to-items.js';
import { RankingCache } from './ranking-cache.js';
import type { RecoParts } from './reco-parts.js';
import type { RecoQuery, SessionInput } from './request.js';
import { SessionInputs } from './session-input.js';
import { Shaper } from './shaping.js';
import type { TurnBudget } from './turn-budget.js';
import { UserProfiles } from './user-profiles.js';
import { UserListCache } from './user-list-cache.js';
import type { FeedbackChanges } from '../feedback/feedback-changes.js';
import { ValueRankings } from './value-rankings.js';
import { FreshProfiles } from './fresh-profiles.js';
import type { Logger } from 'pino';

export class RecommendService {
  private readonly p: RecoParts;
  private readonly turns: TurnBudget;
  private readonly gone: DatabaseGone;
  readonly fresh: FreshProfiles;

  constructor(
    registry: ModelRegistry,
    catalogues: Catalogues,
    entities: EntitiesStore,
    ratings: RatingsStore,
    rules: InteractionRuleService,
    profiles: ProfileCache,
    changes: FeedbackChanges,
    scoring: ScoringPool,
    planner: RecoPlanner,
    tables: TableService,
    // Rankings of up to this many multiply-adds run on the event loop, larger ones in the scoring pool.
    inlineWork: number,
    // How much of a turn anonymous sessions may take before the rest wait for later turns.
    turns: TurnBudget,
    // Users' lists made on requests this process holds at most (UserListCache).
    userListCache: number,
    // A failed recommendation asks it whether the database is gone (database-gone.ts).
    databases: Pick<DatabasesStore, 'get'>,
    logger: Logger,
  ) {
    this.turns = turns;
    this.gone = new DatabaseGone(databases);
    const rankings = new RankingCache(scoring, inlineWork);
    const shaper = new Shaper(catalogues);
    this.p = {
      registry,
      catalogues,
      entities,
      planner,
      shaper,
      pager: new Pager(rankings),
      users: new UserProfiles(entities, ratings, profiles, changes, rankings, new UserListCache(userListCache)),
      sessions: new SessionInputs(catalogues, rules),
      values: new ValueRankings(catalogues, shaper, rankings),
      tables,
    };
    this.fresh = new FreshProfiles((db) => registry.held(db), (db, rows) => entities.idsOf(db, 'user', rows), this.p.users, logger);
    changes.onChanged = (db, rows) => this.fresh.changed(db, rows);
  }

  itemToItems(auth: Claims, db: string, rawItem: string, q: RecoQuery) {
    return this.gone.check(db, itemToItems(this.p, auth, db, rawItem, q));
  }

  userToItems(auth: Claims, db: string, rawUser: string, q: RecoQuery, context?: unknown[]) {
    return this.gone.check(db, userToItems(this.p, auth, db, rawUser, q, context));
  }

  // A session is folded in and ranked on each request (nothing of it is kept), so its whole request
  // shares the turn's budget; a user's or an item's mostly answer from lists and never wait.
  sessionToItems(auth: Claims, db: string, s: SessionInput, q: RecoQuery, context?: unknown[]) {
    return this.gone.check(db, this.turns.run(() => sessionToItems(this.p, auth, db, s, q, context)));
  }

  userToProperties(auth: Claims, db: string, rawUser: string, property: string, q: RecoQuery) {
    return this.gone.check(db, userToProperties(this.p, auth, db, rawUser, property, q));
  }

  sessionToProperties(auth: Claims, db: string, s: SessionInput, property: string, q: RecoQuery) {
    return this.gone.check(db, this.turns.run(() => sessionToProperties(this.p, auth, db, s, property, q)));
  }

  groupToItems(auth: Claims, db: string, rawUsers: unknown[], consensus: number, q: RecoQuery) {
    return this.gone.check(db, groupToItems(this.p, auth, db, rawUsers, consensus, q));
  }

  precomputed(auth: Claims, db: string, kind: TableKind, rawId: string, q: RecoQuery) {
    return this.gone.check(db, precomputed(this.p, auth, db, kind, rawId, q));
  }

  propertiesToItems(auth: Claims, db: string, values: Record<string, unknown>, q: RecoQuery) {
    return this.gone.check(db, propertiesToItems(this.p, auth, db, values, q));
  }
}
