// Items for an anonymous session: POST recommendation/sessions/items/ and, steered towards context
// items, POST recommendation/context-items/sessions/items/. The session's ratings or interactions
// are folded in like a user's, and nothing of them is kept.
// One request, two paths (as user-to-items.ts): `now` answers in the same tick a session of ratings
// without user properties, the usual kind; `later` awaits what the rest need.
import type { Maybe } from '../maybe.js';
import type { RecoParts } from '../reco-parts.js';
import { excluded, interacted } from '../request/exclusions.js';
import { pageJob, pageRules, rulesNow } from '../request/page-rules.js';
import type { RecoAnswer, SessionRequest } from '../request/request.js';
import { servedModel } from '../request/served-model.js';

export function sessionToItems(p: RecoParts, r: SessionRequest): Maybe<RecoAnswer> {
  return now(p, r) ?? later(p, r);
}

function now(p: RecoParts, r: SessionRequest): Maybe<RecoAnswer> | undefined {
  if (r.context !== undefined) return undefined; // context items are read
  const model = p.registry.held(r.db);
  if (model === undefined) return undefined;
  const profile = p.sessions.profileNow(r.auth, model, r.session);
  if (profile === undefined) return undefined;
  const rules = rulesNow(p, r.db, r.recoType, r.q, p.sessions.subject(r.auth, r.q, r.session, profile));
  if (rules === undefined) return undefined;
  const ranked = p.users.ranking(model, profile, [], true);
  return p.pager.page(pageJob(r.auth, model, rules, ranked, excluded(rules.w, profile, [])));
}

async function later(p: RecoParts, r: SessionRequest): Promise<RecoAnswer> {
  const model = await servedModel(p.registry, r.db);
  const profile = await p.sessions.profile(r.auth, r.db, model, r.session);
  const who = p.sessions.subject(r.auth, r.q, r.session, profile);
  const rules = await pageRules(p, r.db, r.recoType, r.q, who);
  const ranked = p.users.ranking(model, profile, await p.users.contextRows(r.auth, r.db, model, r.context), true);
  const exclude = await interacted(p.planner, r.db, model, rules.w, who, excluded(rules.w, profile, ranked.context));
  return p.pager.page(pageJob(r.auth, model, rules, ranked, exclude));
}
