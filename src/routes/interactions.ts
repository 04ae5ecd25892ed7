// Interactions of users and sessions, session resolution, and the interaction → rating rules.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { ALL4, BACKENDS } from '../contract/roles.js';
import { dbRoute, reply, type Route } from '../contract/routes.js';
import type { InteractionRuleService } from '../services/feedback/interaction-rules.js';
import type { InteractionService, Owner } from '../services/feedback/interactions.js';
import { idParams, IdText } from '../schemas/ids.js';
import { InteractionRules, InteractionsPage, InteractionsWritten, ResolvedSessions } from '../schemas/feedback-answers.js';
import { TaskQueued } from '../schemas/model-answers.js';
import { Written } from '../schemas/responses.js';

const MAX_ROWS = 1_000_000;
const Rows = Type.Array(Type.Unknown(), { maxItems: MAX_ROWS }); // each row checked by the service, which names the bad one
const One = Type.Object({
  interaction_type: Type.Unknown(),
  timestamp: Type.Optional(Type.Unknown()),
  properties: Type.Optional(Type.Unknown()),
});
const Page = {
  amt: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.ratingsAmtMax })),
  cursor: Type.Optional(Type.String({ maxLength: 256 })),
};
const Window = {
  start_timestamp: Type.Optional(Type.Number()),
  end_timestamp: Type.Optional(Type.Number()),
};

// user: `users/<user_id>/…`, `interactions-bulk/`; session: `sessions/<session_id>/…`, `sessions-interactions-bulk/`.
function ownerRoutes(s: InteractionService, owner: Owner, onePath: string, ownPath: string, allPath: string): Route[] {
  const param = `${owner}_id`;
  const Params = idParams(param);
  const ItemParams = idParams(param, 'item_id');
  return [
    dbRoute(ALL4, {
      method: 'POST',
      path: onePath,
      frontend: owner,
      summary: `one interaction of a ${owner} with an item`,
      response: InteractionsWritten,
      params: ItemParams,
      body: One,
      handler: ({ auth, db, params, body, idempotencyKey }) =>
        s.addOne(auth, db, owner, params[param]!, params.item_id!, body, idempotencyKey),
    }),
    dbRoute(ALL4, {
      method: 'POST',
      path: ownPath,
      frontend: owner,
      summary: `interactions of one ${owner}`,
      response: InteractionsWritten,
      params: Params,
      body: Type.Object({ interactions: Rows }),
      handler: ({ auth, db, params, body, idempotencyKey }) =>
        s.addOwned(auth, db, owner, params[param]!, body.interactions, idempotencyKey),
    }),
    dbRoute(BACKENDS, {
      method: 'GET',
      path: ownPath,
      summary: `interactions of one ${owner}, in the order received`,
      listing: ({ query }) => query.amt ?? LIMITS.ratingsAmtDefault,
      response: InteractionsPage(owner),
      params: Params,
      query: Type.Object(Page),
      handler: ({ auth, db, params, query }) =>
        s.listOwn(auth, db, owner, params[param]!, query.amt ?? LIMITS.ratingsAmtDefault, query.cursor || undefined),
    }),
    dbRoute(BACKENDS, {
      method: 'POST',
      path: allPath,
      summary: `interactions of any ${owner}s (each names its ${param})`,
      response: InteractionsWritten,
      body: Type.Object({ interactions: Rows }),
      handler: ({ auth, db, body, idempotencyKey }) => s.add(auth, db, owner, body.interactions, idempotencyKey),
    }),
    dbRoute(BACKENDS, {
      method: 'GET',
      path: allPath,
      summary: `interactions of every ${owner}, in the order received, optionally within a time window`,
      listing: ({ query }) => query.amt ?? LIMITS.ratingsAmtDefault,
      response: InteractionsPage(owner),
      query: Type.Object({ ...Page, ...Window }),
      handler: ({ auth, db, query }) =>
        s.listAll(auth, db, owner, query.amt ?? LIMITS.ratingsAmtDefault, query.cursor || undefined, {
          start: query.start_timestamp,
          end: query.end_timestamp,
        }),
    }),
  ];
}

export const interactionRoutes = (s: InteractionService, rules: InteractionRuleService): Route[] => [
  ...ownerRoutes(s, 'user', 'users/<user_id>/interactions/<item_id>/', 'users/<user_id>/interactions-bulk/', 'interactions-bulk/'),
  ...ownerRoutes(
    s,
    'session',
    'sessions/<session_id>/items/<item_id>/interactions/',
    'sessions/<session_id>/interactions-bulk/',
    'sessions-interactions-bulk/',
  ),
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'interactions-ratings-bulk/',
    summary: "remove users' interactions and ratings (a background task)",
    statuses: [202],
    response: TaskQueued,
    body: Type.Object({ users_id: Type.Array(Type.Union([IdText, Type.Number()]), { maxItems: MAX_ROWS }) }),
    handler: async ({ auth, db, body }) => reply(202, await s.forgetUsers(auth, db, body.users_id)),
  }),
  dbRoute(BACKENDS, {
    method: 'POST',
    path: 'sessions/<session_id>/resolve/',
    summary: 'link an anonymous session to a user (once)',
    response: Written,
    params: idParams('session_id'),
    body: Type.Object({ user_id: Type.Union([IdText, Type.Number()]), timestamp: Type.Optional(Type.Unknown()) }),
    handler: ({ auth, db, params, body }) => s.resolve(auth, db, params.session_id, body.user_id, body.timestamp),
  }),
  dbRoute(BACKENDS, {
    method: 'POST',
    path: 'resolved-sessions/',
    summary: 'sessions linked to users, in the order they were resolved',
    listing: ({ body }) => body.amt ?? LIMITS.ratingsAmtDefault,
    response: ResolvedSessions,
    body: Type.Object({ users_id: Type.Optional(Type.Array(Type.Union([IdText, Type.Number()]), { maxItems: 100_000 })), ...Page }),
    handler: ({ auth, db, body }) =>
      s.resolvedSessions(auth, db, body.users_id, body.amt ?? LIMITS.ratingsAmtDefault, body.cursor || undefined),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'interaction-rules/',
    summary: "how interaction types become inferred ratings: the database's rules and the defaults",
    response: InteractionRules,
    handler: ({ db }) => rules.get(db).then((r) => ({ ...r, warnings: [] as string[] })),
  }),
  dbRoute(BACKENDS, {
    method: 'PUT',
    path: 'interaction-rules/',
    summary: "replace the database's interaction rules (types it does not list use the defaults)",
    response: null,
    body: Type.Object({ rules: Type.Record(Type.String({ maxLength: 64 }), Type.Unknown()) }),
    handler: ({ db, body }) => rules.replace(db, body.rules),
  }),
];
