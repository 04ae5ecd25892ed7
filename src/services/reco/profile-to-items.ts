// Items for a profile: GET recommendation/users/<user_id>/items/ (the user's current ratings folded
// into fresh factors, so new feedback counts at once), POST recommendation/sessions/items/ (a
// session's ratings or interactions, folded in like a user's) and their context-items forms.
// A user's request answers in the same tick when the profile is held and the plan and shape are at hand.
import type { Claims } from '../../contract/claims.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { Profile } from '../feedback/profile-cache.js';
import { pathOwner } from '../ids/request-ids.js';
import { excluded, interacted } from './exclusions.js';
import { then, type Maybe } from './maybe.js';
import type { Subject } from './planner.js';
import type { RecoParts } from './reco-parts.js';
import { want, withAll, type RecoAnswer, type RecoQuery, type SessionInput } from './request.js';
import { servedModel } from './served-model.js';

export function userToItems(p: RecoParts, auth: Claims, db: string, rawUser: string, q: RecoQuery, context?: unknown[]): Maybe<RecoAnswer> {
  const user = pathOwner(auth, 'user', rawUser, false);
  return then(servedModel(p.registry, db), (model) => {
    // With context items the profile is read afresh.
    const held = context === undefined ? p.users.held(db, model, user) : undefined;
    // A stale profile still answers; one refresh in the background serves the next request.
    const refresh = held?.stale ? () => void p.users.read(db, model, user).catch(() => undefined) : undefined;
    return then(held ? held.profile : p.users.read(db, model, user), (profile) => {
      const who: Subject = { user: user.key, nRatings: () => profile.count };
      return profileToItems(p, auth, db, model, profile, who, context === undefined ? 'profile_to_items' : 'profile_to_items_w_ctx_items', q, context, refresh);
    });
  });
}

export function sessionToItems(p: RecoParts, auth: Claims, db: string, s: SessionInput, q: RecoQuery, context?: unknown[]): Maybe<RecoAnswer> {
  return then(servedModel(p.registry, db), (model) =>
    then(p.sessions.profile(auth, db, model, s), (profile) => {
      const who = p.sessions.subject(auth, q, s, profile);
      return profileToItems(p, auth, db, model, profile, who, context === undefined ? 'session_to_items' : 'session_to_items_w_ctx_items', q, context, undefined);
    }),
  );
}

// refresh: called once the request is known to be answerable from the held profile.
function profileToItems(p: RecoParts, auth: Claims, db: string, model: LoadedModel, profile: Profile, who: Subject, recoType: string, q: RecoQuery, context: unknown[] | undefined, refresh: (() => void) | undefined): Maybe<RecoAnswer> {
  return then(p.planner.plan(db, recoType, q, who), (plan) => {
    const w = want(q, plan);
    return then(p.shaper.shape(db, w), (shape) => {
      refresh?.();
      return then(p.users.contextRows(auth, db, model, context), (rows) => {
        const ranked = p.users.ranking(model, profile, rows);
        return then(interacted(p.planner, db, model, w, who, excluded(w, profile, ranked.context)), (exclude) =>
          p.pager.page({ auth, model, key: ranked.key, spec: ranked.spec, q: w, shape, exclude, warnings: withAll(w.warnings, ranked.warnings) }),
        );
      });
    });
  });
}
