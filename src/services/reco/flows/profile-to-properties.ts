// Values of an item property ranked for a profile: GET
// recommendation/users/<user_id>/items-properties/<property>/ and POST
// recommendation/sessions/items-properties/<property>/.
import type { Claims } from '../../../contract/claims.js';
import type { RecoType } from '../../../contract/reco-types.js';
import { pathOwner } from '../../ids/request-ids.js';
import type { Subject } from '../request/planner.js';
import type { RecoParts } from '../reco-parts.js';
import { want, type RecoQuery, type SessionInput } from '../request/request.js';
import { servedModel } from '../request/served-model.js';
import type { ValuesAnswer } from '../paging/value-rankings.js';

export async function userToProperties(
  p: RecoParts,
  auth: Claims,
  db: string,
  recoType: RecoType,
  rawUser: string,
  property: string,
  q: RecoQuery,
): Promise<ValuesAnswer> {
  const user = pathOwner(auth, 'user', rawUser, false);
  const model = await servedModel(p.registry, db);
  const profile = await p.users.read(db, model, user);
  const who: Subject = { user: user.key, nRatings: () => profile.count };
  const w = want(q, await p.planner.plan(db, recoType, q, who));
  return p.values.rank(db, model, p.users.ranking(model, profile, []), property, w);
}

export async function sessionToProperties(
  p: RecoParts,
  auth: Claims,
  db: string,
  recoType: RecoType,
  s: SessionInput,
  property: string,
  q: RecoQuery,
): Promise<ValuesAnswer> {
  const model = await servedModel(p.registry, db);
  const profile = await p.sessions.profile(auth, db, model, s);
  const w = want(q, await p.planner.plan(db, recoType, q, p.sessions.subject(auth, q, s, profile)));
  return p.values.rank(db, model, p.users.ranking(model, profile, []), property, w);
}
