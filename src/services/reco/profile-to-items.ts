// Items for a profile: GET recommendation/users/<user_id>/items/ (the user's current ratings folded
// into fresh factors, so new feedback counts at once), POST recommendation/sessions/items/ (a
// session's ratings or interactions, folded in like a user's) and their context-items forms.
// A user's request answers in the same tick when the profile is held and the plan and shape are at hand.
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
import type { Shape } from './shaping.js';

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
  refresh = false; // the held profile is stale: read it again in the background once the request is known to answer
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
    readonly recoType: string,
  ) {}
}

function withUserModel(model: LoadedModel, r: ProfileRequest): Maybe<RecoAnswer> {
  r.model = model;
  // With context items the profile is read afresh.
  const held = r.context === undefined ? r.p.users.held(r.db, model, r.user!) : undefined;
  r.refresh = held?.stale === true; // a stale profile still answers; one refresh serves the next request
  return then(held ? held.profile : r.p.users.read(r.db, model, r.user!), withUserProfile, r);
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
  if (r.refresh) void r.p.users.read(r.db, r.model, r.user!).catch(() => undefined);
  return then(r.p.users.contextRows(r.auth, r.db, r.model, r.context), withContext, r);
}

function withContext(rows: number[], r: ProfileRequest): Maybe<RecoAnswer> {
  r.ranked = r.p.users.ranking(r.model, r.profile, rows);
  return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, excluded(r.w, r.profile, r.ranked.context)), withExclusions, r);
}

function withExclusions(exclude: Set<number> | undefined, r: ProfileRequest): Maybe<RecoAnswer> {
  const { auth, model, w, shape, ranked } = r;
  return r.p.pager.page({ auth, model, key: ranked.key, spec: ranked.spec, q: w, shape, exclude, warnings: withAll(w.warnings, ranked.warnings) });
}
