// POST recommendation/users-groups/items/: items for several users at once, each user's ratings
// folded in and the group ranked by consensus.
import type { Claims } from '../../../contract/claims.js';
import type { RecoType } from '../../../contract/reco-types.js';
import type { Profile } from '../../feedback/profile-cache.js';
import { parseId } from '../../ids/request-ids.js';
import { interacted } from '../request/exclusions.js';
import type { Subject } from '../request/planner.js';
import type { RecoParts } from '../reco-parts.js';
import { NO_RATINGS, POPULAR, requestUser, want, withAll, type RecoAnswer, type RecoQuery } from '../request/request.js';
import { servedModel } from '../request/served-model.js';

export async function groupToItems(
  p: RecoParts,
  auth: Claims,
  db: string,
  recoType: RecoType,
  rawUsers: unknown[],
  consensus: number,
  q: RecoQuery,
): Promise<RecoAnswer> {
  const model = await servedModel(p.registry, db);
  const who: Subject = { user: requestUser(auth, q) };
  const w = want(q, await p.planner.plan(db, recoType, q, who));
  const shape = await p.shaper.shape(db, w);
  const profiles: Profile[] = [];
  for (const raw of rawUsers) profiles.push(await p.users.read(db, model, parseId(auth, 'user', raw, false)));
  const rated = profiles.filter((u) => u.items.length > 0);
  const exclude = await interacted(p.planner, db, model, w, who, w.excludeRated ? new Set(profiles.flatMap((u) => u.items)) : undefined);
  if (rated.length === 0)
    return p.pager.page({
      auth,
      model,
      key: 'pop',
      spec: POPULAR,
      q: w,
      shape,
      exclude,
      warnings: withAll(w.warnings, [NO_RATINGS]),
      stopAt: undefined,
    });
  const vectors = rated.map((u) => p.users.vector(model, u));
  const key = `g${consensus} ${rated
    .map((u) => u.key)
    .sort()
    .join('|')}`;
  return p.pager.page({
    auth,
    model,
    key,
    spec: { kind: 'group', vectors, consensus },
    q: w,
    shape,
    exclude,
    warnings: w.warnings,
    stopAt: undefined,
  });
}
