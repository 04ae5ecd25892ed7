// Recommendations from the served model, one method per endpoint: one ranking per query (cached per
// model version), then filters, exclusions and pagination over it. The endpoints live in their own
// files; this class makes the parts they share.
import type { Scorer } from '../../engine/scoring/scorer.js';
import type { ModelRegistry } from '../../engine/model/registry.js';
import type { Claims } from '../../contract/claims.js';
import type { RecoType } from '../../contract/reco-types.js';
import type { DatabasesStore } from '../../store/databases-store.js';
import type { EntitiesStore } from '../../store/entities-store.js';
import type { RatingsStore } from '../../store/ratings-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import type { InteractionRuleService } from '../feedback/interaction-rules.js';
import type { ProfileCache } from '../feedback/profile-cache.js';
import type { FeedbackChanges } from '../feedback/feedback-changes.js';
import { genericRecoType, idText, type GenericBody } from './flows/generic.js';
import { groupToItems } from './flows/group-to-items.js';
import { itemToItems } from './flows/item-to-items.js';
import { precomputed } from './flows/precomputed.js';
import { sessionToProperties, userToProperties } from './flows/profile-to-properties.js';
import { propertiesToItems } from './flows/properties-to-items.js';
import { sessionToItems } from './flows/session-to-items.js';
import { userToItems } from './flows/user-to-items.js';
import { Pager } from './paging/pager.js';
import type { TableService } from './paging/precomputed-tables.js';
import { Shaper } from './paging/shaping.js';
import { ValueRankings } from './paging/value-rankings.js';
import type { Maybe } from './maybe.js';
import type { RecoParts } from './reco-parts.js';
import { DatabaseGone } from './request/database-gone.js';
import { FreshProfiles } from './request/fresh-profiles.js';
import type { AnswerIds } from './request/recommendation-ids.js';
import type { RecoPlanner } from './request/planner.js';
import type { ItemRequest, RecoAnswer, RecoQuery, SessionInput, SessionRequest, TableRequest, UserRequest } from './request/request.js';
import { SessionInputs } from './request/session-input.js';
import type { TurnBudget } from './request/turn-budget.js';
import { UserListCache } from './request/user-list-cache.js';
import { UserProfiles } from './request/user-profiles.js';
import type { Logger } from 'pino';
import type { Viewed } from '../outcomes/impressions.js';
import type { RotationReads } from '../outcomes/rotation.js';

type RecordedAnswer = Parameters<AnswerIds['record']>[1];

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
    scorer: Scorer,
    planner: RecoPlanner,
    tables: TableService,
    // How much of a turn anonymous sessions may take before the rest wait for later turns.
    turns: TurnBudget,
    // Users' lists made on requests this process holds at most (UserListCache).
    userListCache: number,
    // A failed recommendation asks it whether the database is gone (database-gone.ts).
    databases: Pick<DatabasesStore, 'get'>,
    // What ids answers, and records them when impressions are recorded.
    private readonly ids: AnswerIds,
    rotation: RotationReads,
    logger: Logger,
  ) {
    this.turns = turns;
    this.gone = new DatabaseGone(databases);
    const shaper = new Shaper(catalogues);
    this.p = {
      registry,
      catalogues,
      entities,
      planner,
      shaper,
      pager: new Pager(scorer),
      users: new UserProfiles(entities, ratings, profiles, changes, scorer, new UserListCache(userListCache)),
      sessions: new SessionInputs(catalogues, rules),
      values: new ValueRankings(catalogues, shaper, scorer),
      tables,
      rotation,
    };
    this.fresh = new FreshProfiles(
      (db) => registry.held(db),
      (db, rows) => entities.idsOf(db, 'user', rows),
      this.p.users,
      logger,
    );
    changes.onChanged = (db, rows) => this.fresh.changed(db, rows);
  }

  itemToItems(r: ItemRequest) {
    return this.items(r, itemToItems(this.p, r));
  }

  userToItems(r: UserRequest) {
    return this.items(r, userToItems(this.p, r));
  }

  // A session is folded in and ranked on each request (nothing of it is kept), so its whole request
  // shares the turn's budget; a user's or an item's mostly answer from lists and never wait.
  sessionToItems(r: SessionRequest) {
    return this.items(
      r,
      this.turns.run(() => sessionToItems(this.p, r)),
    );
  }

  // The generic endpoint: the dedicated endpoint's answer for what the body gives, with its reco type.
  generic(auth: Claims, db: string, body: GenericBody, q: RecoQuery) {
    const recoType = genericRecoType(body);
    const answer =
      recoType === 'item_to_items'
        ? this.itemToItems({ auth, db, recoType, q, item: idText(body.item_id, 'item_id') })
        : body.user_id !== undefined
          ? this.userToItems({
              auth,
              db,
              recoType,
              q: { ...q, userId: undefined },
              user: idText(body.user_id, 'user_id'),
              context: body.context_items,
            })
          : this.sessionToItems({ auth, db, recoType, q, session: body, context: body.context_items });
    return Promise.resolve(answer).then((a) => ({ ...a, reco_type: recoType }));
  }

  userToProperties(auth: Claims, db: string, recoType: RecoType, rawUser: string, property: string, q: RecoQuery) {
    return this.gone.check(db, userToProperties(this.p, auth, db, recoType, rawUser, property, q));
  }

  sessionToProperties(auth: Claims, db: string, recoType: RecoType, s: SessionInput, property: string, q: RecoQuery) {
    return this.gone.check(
      db,
      this.turns.run(() => sessionToProperties(this.p, auth, db, recoType, s, property, q)),
    );
  }

  groupToItems(auth: Claims, db: string, recoType: RecoType, rawUsers: unknown[], consensus: number, q: RecoQuery) {
    return this.items({ auth, db, recoType, q }, groupToItems(this.p, auth, db, recoType, rawUsers, consensus, q));
  }

  precomputed(r: TableRequest) {
    return this.items(r.table === 'item_to_items' ? { ...r, item: r.id } : { ...r, user: r.id }, precomputed(this.p, r));
  }

  propertiesToItems(auth: Claims, db: string, values: Record<string, unknown>, q: RecoQuery) {
    return this.items({ auth, db, recoType: 'properties_to_items', q }, propertiesToItems(this.p, auth, db, values, q));
  }

  // What an item's or a user's request would answer now, neither identified nor recorded: a replay's
  // candidate (services/outcomes/replay.ts).
  async unrecorded(r: ItemRequest | UserRequest): Promise<RecoAnswer> {
    return 'item' in r ? itemToItems(this.p, r) : userToItems(this.p, r);
  }

  // An item-list answer, with its id (recommendation_id): every answer gets its own.
  private items<T extends RecordedAnswer>(who: Viewed, answer: Maybe<T>): Maybe<T & { recommendation_id: string }> {
    const checked = this.gone.check(who.db, answer);
    return checked instanceof Promise ? checked.then((a) => this.identified(who, a)) : this.identified(who, checked);
  }

  // Set on the answer itself, which every flow makes afresh for its request: a copy with one more field
  // cost almost 1 µs a request (the answers' several shapes sent the spread to V8's runtime).
  private identified<T extends RecordedAnswer>(who: Viewed, answer: T): T & { recommendation_id: string } {
    const identified = answer as T & { recommendation_id: string };
    identified.recommendation_id = this.ids.record(who, answer);
    return identified;
  }
}
