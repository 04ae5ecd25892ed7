// Items for a user: GET recommendation/users/<user_id>/items/ and, steered towards context items,
// POST recommendation/context-items/users/<user_id>/items/.
// A user whose feedback did not change since the model's data is ranked by their trained factors,
// from their precomputed list while it lasts, without reading their ratings; past the list (and for
// other users) their ratings are read once per change and, when changed, folded into fresh factors,
// so new feedback counts at once.
// One request, two paths: `now` answers in the same tick from what this process holds (pipelining
// clients rely on it) and returns undefined as soon as something must be read, having started no
// read the later path would not share; `later` awaits what it needs, the whole way.
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { ChangesSince } from '../../feedback/feedback-changes.js';
import { pathOwner, type Parsed } from '../../ids/request-ids.js';
import { pending, type Maybe } from '../maybe.js';
import { NEEDS_RATINGS, type PageJob } from '../paging/pager.js';
import type { RecoParts } from '../reco-parts.js';
import { excluded, interacted } from '../request/exclusions.js';
import { pageJob, pageRules, rulesNow, type PageRules } from '../request/page-rules.js';
import type { Subject } from '../request/planner.js';
import type { RecoAnswer, UserRequest } from '../request/request.js';
import { servedModel } from '../request/served-model.js';
import type { TrainedRanked } from '../request/user-profiles.js';

export function userToItems(p: RecoParts, r: UserRequest): Maybe<RecoAnswer> {
  const user = pathOwner(r.auth, 'user', r.user, false);
  return now(p, r, user) ?? later(p, r, user);
}

function now(p: RecoParts, r: UserRequest, user: Parsed): Maybe<RecoAnswer> | undefined {
  if (r.context !== undefined || r.q.reasons) return undefined; // context items are read, and explanations the user's ratings
  const model = p.registry.held(r.db);
  if (model === undefined) return undefined;
  const changes = p.users.changes(r.db, model);
  if (pending(changes)) return undefined;
  const row = model.userIndex.get(user.key);
  if (row === undefined) return undefined;
  if (p.users.unchanged(changes, model, user, row)) {
    const rules = rulesNow(p, r.db, r.recoType, r.q, { user: user.key });
    if (rules === undefined) return undefined;
    const ranked = p.users.trainedRanking(model, row, rules.w.excludeRated);
    if (ranked.listed === undefined) {
      // A list the training had no time for is made the later way.
      if (rules.w.excludeRated && ranked.spec.kind !== 'popular') return undefined;
      return p.pager.page(pageJob(r.auth, model, rules, ranked, undefined));
    }
    const paged = listPage(p, r, model, rules, ranked);
    if (paged instanceof Promise) return paged.then((out) => (out === NEEDS_RATINGS ? later(p, r, user) : out));
    if (paged !== NEEDS_RATINGS) return paged;
    // Past their list: their rated items are left out from here on.
    const profile = p.users.profile(r.db, model, user, row, changes);
    if (pending(profile)) return undefined;
    return p.pager.page(pageJob(r.auth, model, rules, ranked, excluded(rules.w, profile, [])));
  }
  const profile = p.users.profile(r.db, model, user, row, changes);
  if (pending(profile)) return undefined;
  const rules = rulesNow(p, r.db, r.recoType, r.q, { user: user.key, nRatings: () => profile.count });
  if (rules === undefined) return undefined;
  const ranked = p.users.ranking(model, profile, []);
  return p.pager.page(pageJob(r.auth, model, rules, ranked, excluded(rules.w, profile, [])));
}

async function later(p: RecoParts, r: UserRequest, user: Parsed): Promise<RecoAnswer> {
  const model = await servedModel(p.registry, r.db);
  const changes = await p.users.changes(r.db, model);
  const row = await p.users.row(r.db, model, user);
  if (r.context === undefined && p.users.unchanged(changes, model, user, row)) return trainedLater(p, r, user, model, changes, row);
  const profile = await p.users.profile(r.db, model, user, row, changes);
  const who: Subject = { user: user.key, nRatings: () => profile.count };
  const rules = await pageRules(p, r.db, r.recoType, r.q, who);
  const ranked = p.users.ranking(model, profile, await p.users.contextRows(r.auth, r.db, model, r.context));
  const exclude = await interacted(p.planner, r.db, model, rules.w, who, excluded(rules.w, profile, ranked.context));
  return p.pager.page(pageJob(r.auth, model, rules, ranked, exclude));
}

// A user ranked by their trained factors: from their list when rated items are left out (it holds
// none), reading their ratings only if the page must go past it, or when rated items are left out
// and the training had no time for their list (made then, once).
async function trainedLater(
  p: RecoParts,
  r: UserRequest,
  user: Parsed,
  model: LoadedModel,
  changes: ChangesSince,
  row: number,
): Promise<RecoAnswer> {
  const who: Subject = { user: user.key };
  const rules = await pageRules(p, r.db, r.recoType, r.q, who);
  let ranked = p.users.trainedRanking(model, row, rules.w.excludeRated);
  if (rules.w.reasons) {
    const profile = await p.users.profile(r.db, model, user, row, changes);
    ranked = { ...ranked, because: { rows: profile.items, values: profile.values } };
  }
  if (ranked.listed === undefined && rules.w.excludeRated && ranked.spec.kind !== 'popular') {
    const profile = await p.users.profile(r.db, model, user, row, changes);
    await p.users.makeList(model, row, profile);
    const listed = p.users.trainedRanking(model, row, true); // unlisted still when nothing unrated is left to list
    const exclude = await interacted(p.planner, r.db, model, rules.w, who, excluded(rules.w, profile, []));
    return p.pager.page(pageJob(r.auth, model, rules, listed.listed === undefined ? ranked : listed, exclude));
  }
  const exclude = await interacted(p.planner, r.db, model, rules.w, who, undefined);
  if (ranked.listed === undefined) return p.pager.page(pageJob(r.auth, model, rules, ranked, exclude));
  const paged = await listPage(p, r, model, rules, ranked, exclude);
  if (paged !== NEEDS_RATINGS) return paged;
  const profile = await p.users.profile(r.db, model, user, row, changes);
  return p.pager.page(
    pageJob(r.auth, model, rules, ranked, await interacted(p.planner, r.db, model, rules.w, who, excluded(rules.w, profile, []))),
  );
}

// A page of the user's list, which holds no item they rated: NEEDS_RATINGS when it must go past it.
function listPage(p: RecoParts, r: UserRequest, model: LoadedModel, rules: PageRules, ranked: TrainedRanked, exclude?: Set<number>) {
  return p.pager.page(pageJob(r.auth, model, rules, ranked, exclude, ranked.listed) as PageJob & { stopAt: number });
}
