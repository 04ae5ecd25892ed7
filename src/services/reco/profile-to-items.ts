// Items for a profile: GET recommendation/users/<user_id>/items/, POST recommendation/sessions/items/
// (a session's ratings or interactions, folded in like a user's) and their context-items forms.
// A user whose feedback did not change since the model's data is ranked by their trained factors,
// from their precomputed list while it lasts, without reading their ratings; past the list (and for
// other users) their ratings are read once per change and, when changed, folded into fresh factors,
// so new feedback counts at once. A user's request answers in the same tick when the plan and shape
// are at hand and it needs no ratings it does not hold.
import type { Claims } from '../../contract/claims.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { Profile } from '../feedback/profile-cache.js';
import { pathOwner, type Parsed } from '../ids/request-ids.js';
import type { Plan } from '../scenarios/scenario-walk.js';
import { excluded, interacted } from './exclusions.js';
import { then, type Maybe } from './maybe.js';
import type { Subject } from './planner.js';
import type { RecoParts } from './reco-parts.js';
import { want, withAll, type Ranked, type RecoAnswer, type RecoQuery, type SessionInput, type Want } from './request.js';
import { servedModel } from './served-model.js';
import type { TrainedRanked } from './user-profiles.js';
import type { ChangesSince } from '../feedback/feedback-changes.js';
import type { Shape } from './shaping.js';
import type { RecoType } from '../../contract/reco-types.js';

export function userToItems(p: RecoParts, auth: Claims, db: string, rawUser: string, q: RecoQuery, context?: unknown[]): Maybe<RecoAnswer> {
  const r = new ProfileRequest(p, auth, db, q, context, context === undefined ? 'profile_to_items' : 'profile_to_items_w_ctx_items');
  r.user = pathOwner(auth, 'user', rawUser, false);
  return then(servedModel(p.registry, db), withUserModel, r);
}

export function sessionToItems(p: RecoParts, auth: Claims, db: string, s: SessionInput, q: RecoQuery, context?: unknown[]): Maybe<RecoAnswer> {
  const r = new ProfileRequest(p, auth, db, q, context, context === undefined ? 'session_to_items' : 'session_to_items_w_ctx_items');
  r.session = s;
  return then(servedModel(p.registry, db), withSessionModel, r);
}

// A request and what its steps have found so far (each step fills in its part).
class ProfileRequest {
  user: Parsed | undefined; // a user's request
  session: SessionInput | undefined; // a session's
  row!: number; // a user's
  changes!: ChangesSince; // a user's: whose feedback changed since the model's data
  trained = false; // a user ranked by their trained factors (their feedback unchanged since the model's data)
  model!: LoadedModel;
  profile!: Profile;
  who!: Subject;
  w!: Want;
  shape!: Shape;
  ranked!: Ranked;

  constructor(
    readonly p: RecoParts,
    readonly auth: Claims,
    readonly db: string,
    readonly q: RecoQuery,
    readonly context: unknown[] | undefined,
    readonly recoType: RecoType,
  ) {}
}

function withUserModel(model: LoadedModel, r: ProfileRequest): Maybe<RecoAnswer> {
  r.model = model;
  return then(r.p.users.changes(r.db, model), withChanges, r);
}

function withChanges(changes: ChangesSince, r: ProfileRequest): Maybe<RecoAnswer> {
  r.changes = changes;
  return then(r.p.users.row(r.db, r.model, r.user!), withUserRow, r);
}

function withUserRow(row: number, r: ProfileRequest): Maybe<RecoAnswer> {
  r.row = row;
  r.trained = r.context === undefined && r.p.users.unchanged(r.changes, r.model, r.user!, row);
  if (r.trained) {
    r.who = { user: r.user!.key };
    return then(r.p.planner.plan(r.db, r.recoType, r.q, r.who), withPlan, r);
  }
  return then(r.p.users.profile(r.db, r.model, r.user!, row, r.changes), withUserProfile, r);
}

function withUserProfile(profile: Profile, r: ProfileRequest): Maybe<RecoAnswer> {
  r.profile = profile;
  r.who = { user: r.user!.key, nRatings: () => profile.count };
  return then(r.p.planner.plan(r.db, r.recoType, r.q, r.who), withPlan, r);
}

function withSessionModel(model: LoadedModel, r: ProfileRequest): Maybe<RecoAnswer> {
  r.model = model;
  return then(r.p.sessions.profile(r.auth, r.db, model, r.session!), withSessionProfile, r);
}

function withSessionProfile(profile: Profile, r: ProfileRequest): Maybe<RecoAnswer> {
  r.profile = profile;
  r.who = r.p.sessions.subject(r.auth, r.q, r.session!, profile);
  return then(r.p.planner.plan(r.db, r.recoType, r.q, r.who), withPlan, r);
}

function withPlan(plan: Plan, r: ProfileRequest): Maybe<RecoAnswer> {
  r.w = want(r.q, plan);
  return then(r.p.shaper.shape(r.db, r.w), withShape, r);
}

function withShape(shape: Shape, r: ProfileRequest): Maybe<RecoAnswer> {
  r.shape = shape;
  if (r.trained) return trainedPage(r);
  return then(r.p.users.contextRows(r.auth, r.db, r.model, r.context), withContext, r);
}

// A user ranked by their trained factors: from their list when rated items are left out (it holds
// none), reading their ratings only if the page must go past it, or when rated items are left out
// and the training had no time for their list (made then, once).
function trainedPage(r: ProfileRequest): Maybe<RecoAnswer> {
  const ranked = r.p.users.trainedRanking(r.model, r.row, r.w.excludeRated);
  r.ranked = ranked;
  if (ranked.listed !== undefined) return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, undefined), withListExclusions, r);
  if (r.w.excludeRated && ranked.spec.kind !== 'popular') return then(r.p.users.profile(r.db, r.model, r.user!, r.row, r.changes), withListToMake, r);
  return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, undefined), withExclusions, r);
}

function withListToMake(profile: Profile, r: ProfileRequest): Maybe<RecoAnswer> {
  r.profile = profile;
  return then(r.p.users.makeList(r.model, r.row, profile), withMadeList, r);
}

function withMadeList(_: void, r: ProfileRequest): Maybe<RecoAnswer> {
  const ranked = r.p.users.trainedRanking(r.model, r.row, r.w.excludeRated);
  if (ranked.listed === undefined) return withTrainedProfile(r.profile, r); // nothing unrated to list
  r.ranked = ranked;
  return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, excluded(r.w, r.profile, [])), withExclusions, r);
}

function withListExclusions(exclude: Set<number> | undefined, r: ProfileRequest): Maybe<RecoAnswer> {
  return page(r, exclude, (r.ranked as TrainedRanked).listed, () => then(r.p.users.profile(r.db, r.model, r.user!, r.row, r.changes), withTrainedProfile, r));
}

function withTrainedProfile(profile: Profile, r: ProfileRequest): Maybe<RecoAnswer> {
  r.profile = profile;
  return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, excluded(r.w, profile, [])), withExclusions, r);
}

function page(r: ProfileRequest, exclude: Set<number> | undefined, stopAt: number | undefined, beyond: (() => Maybe<RecoAnswer>) | undefined): Maybe<RecoAnswer> {
  const { auth, model, w, shape, ranked } = r;
  return r.p.pager.page({ auth, model, key: ranked.key, spec: ranked.spec, q: w, shape, exclude, warnings: withAll(w.warnings, ranked.warnings), stopAt, beyond });
}

function withContext(rows: number[], r: ProfileRequest): Maybe<RecoAnswer> {
  r.ranked = r.p.users.ranking(r.model, r.profile, rows, r.session !== undefined);
  return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, excluded(r.w, r.profile, r.ranked.context)), withExclusions, r);
}

function withExclusions(exclude: Set<number> | undefined, r: ProfileRequest): Maybe<RecoAnswer> {
  return page(r, exclude, undefined, undefined);
}
