// Recommendation endpoints: items for an item, a user or a session (with or without context items),
// and property values for a user or a session.
import { Type } from '@sinclair/typebox';
import { wrongData } from '../errors/api-error.js';
import { ALL4, BACKENDS } from '../contract/roles.js';
import { dbRoute, recoRoute, withWarning, type Route } from '../contract/routes.js';
import type { RecommendService } from '../services/reco/recommend.js';
import { CommonParams, Filters, ScenarioParams, query, Rerankings, RuleStrings, scenarioName } from './reco-query.js';
import { idParams, IdText, PathName } from '../schemas/ids.js';
import { GenericRecoItems, RecoItems, RecoValues } from '../schemas/responses.js';

const ContextItems = Type.Array(Type.Unknown(), { minItems: 1, maxItems: 1000 });
const SessionBody = {
  filters: Type.Optional(Filters),
  reranking: Type.Optional(Rerankings),
  exclude_rated_items: Type.Optional(Type.Boolean()),
  ratings: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 10_000 })),
  interactions: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 10_000 })),
  user_properties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};
// Each route's parameters, named: the handler reads what the schema declares (see query()).
const ItemQuery = Type.Object({ ...CommonParams, filters: Type.Optional(RuleStrings), reranking: Type.Optional(RuleStrings) });
const UserQuery = Type.Object({
  ...CommonParams,
  filters: Type.Optional(RuleStrings),
  reranking: Type.Optional(RuleStrings),
  exclude_rated_items: Type.Optional(Type.Boolean()),
});
const SessionItems = Type.Object({ ...CommonParams, ...SessionBody });
const UserContextItems = Type.Object({
  ...CommonParams,
  filters: Type.Optional(Filters),
  reranking: Type.Optional(Rerankings),
  exclude_rated_items: Type.Optional(Type.Boolean()),
  context_items: ContextItems,
});
const SessionContextItems = Type.Object({ ...CommonParams, ...SessionBody, context_items: ContextItems });
const UserPropertiesQuery = Type.Object({ amt: Type.Optional(Type.Unknown()), filters: Type.Optional(RuleStrings), ...ScenarioParams });
const SessionProperties = Type.Object({
  amt: Type.Optional(Type.Unknown()),
  filters: Type.Optional(Filters),
  ...ScenarioParams,
  ratings: SessionBody.ratings,
  interactions: SessionBody.interactions,
  user_properties: SessionBody.user_properties,
});
const Generic = Type.Object({
  ...CommonParams,
  ...SessionBody,
  item_id: Type.Optional(Type.Unknown()),
  context_items: Type.Optional(ContextItems),
});
const PropertiesItems = Type.Object({
  ...CommonParams,
  filters: Type.Optional(Filters),
  reranking: Type.Optional(Rerankings),
  item_properties: Type.Record(Type.String(), Type.Unknown(), { minProperties: 1 }),
});
const GroupItems = Type.Object({
  ...CommonParams,
  filters: Type.Optional(Filters),
  reranking: Type.Optional(Rerankings),
  exclude_rated_items: Type.Optional(Type.Boolean()),
  // `users: [{user_id}, …]` is how the hosted service's Python client sends the group.
  users_id: Type.Optional(Type.Array(Type.Unknown(), { minItems: 1, maxItems: 100 })),
  users: Type.Optional(Type.Array(Type.Object({ user_id: Type.Unknown() }), { minItems: 1, maxItems: 100 })),
  consensus_factor: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
});

export const recommendationRoutes = (reco: RecommendService): Route[] => [
  ...itemsForOneRoutes(reco),
  ...propertyValueRoutes(reco),
  ...itemsForManyRoutes(reco),
];

// Items for one item, user or session (with context items or without).
const itemsForOneRoutes = (reco: RecommendService): Route[] => [
  recoRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/items/<item_id>/items/',
    recoType: 'item_to_items',
    summary: 'items similar to an item',
    response: RecoItems,
    params: idParams('item_id'),
    query: ItemQuery,
    handler: ({ auth, db, params, query: q }, recoType) =>
      reco.itemToItems({ auth, db, recoType, q: query(q, ItemQuery), item: params.item_id! }),
  }),
  recoRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/users/<user_id>/items/',
    frontend: 'user',
    recoType: 'profile_to_items',
    summary: "items for a user, from the user's current ratings",
    response: RecoItems,
    params: idParams('user_id'),
    query: UserQuery,
    handler: ({ auth, db, params, query: q }, recoType) =>
      reco.userToItems({ auth, db, recoType, q: query(q, UserQuery), user: params.user_id!, context: undefined }),
  }),
  recoRoute(ALL4, {
    method: 'POST',
    path: 'recommendation/sessions/items/',
    recoType: 'session_to_items',
    summary: 'items for an anonymous session, from the ratings or interactions it sends (nothing is stored)',
    response: RecoItems,
    body: SessionItems,
    handler: ({ auth, db, body }, recoType) =>
      reco.sessionToItems({ auth, db, recoType, q: query(body, SessionItems), session: body, context: undefined }),
  }),
  recoRoute(ALL4, {
    method: 'POST',
    path: 'recommendation/context-items/users/<user_id>/items/',
    frontend: 'user',
    recoType: 'profile_to_items_w_ctx_items',
    summary: 'items for a user, steered towards items like the context items (which are left out)',
    response: RecoItems,
    params: idParams('user_id'),
    body: UserContextItems,
    handler: ({ auth, db, params, body }, recoType) =>
      reco.userToItems({ auth, db, recoType, q: query(body, UserContextItems), user: params.user_id!, context: body.context_items }),
  }),
  recoRoute(ALL4, {
    method: 'POST',
    path: 'recommendation/context-items/sessions/items/',
    recoType: 'session_to_items_w_ctx_items',
    summary: "items for a session's ratings, steered towards items like the context items (which are left out)",
    response: RecoItems,
    body: SessionContextItems,
    handler: ({ auth, db, body }, recoType) =>
      reco.sessionToItems({ auth, db, recoType, q: query(body, SessionContextItems), session: body, context: body.context_items }),
  }),
];

// Property values for a user or a session.
const propertyValueRoutes = (reco: RecommendService): Route[] => [
  recoRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/users/<user_id>/items-properties/<property_name>/',
    frontend: 'user',
    recoType: 'profile_to_item_properties',
    summary: 'values of an item property for a user, ranked over the items that hold them',
    response: RecoValues,
    params: Type.Object({ user_id: IdText, property_name: PathName }),
    query: UserPropertiesQuery,
    handler: ({ auth, db, params, query: q }, recoType) =>
      reco.userToProperties(auth, db, recoType, params.user_id!, params.property_name!, query(q, UserPropertiesQuery)),
  }),
  recoRoute(ALL4, {
    method: 'POST',
    path: 'recommendation/sessions/items-properties/<property_name>/',
    recoType: 'session_to_item_properties',
    summary: "values of an item property for a session's ratings or interactions, ranked over the items that hold them",
    response: RecoValues,
    params: Type.Object({ property_name: PathName }),
    body: SessionProperties,
    handler: ({ auth, db, params, body }, recoType) =>
      reco.sessionToProperties(auth, db, recoType, body, params.property_name!, query(body, SessionProperties)),
  }),
];

// Items for whatever a body gives, for property values, and for a group of users.
const itemsForManyRoutes = (reco: RecommendService): Route[] => [
  dbRoute(ALL4, {
    method: 'POST',
    path: 'recommendation/generic/items/',
    summary:
      'items for whatever is given: an item_id (item to items), else a user_id (profile), else session ratings, interactions or user properties; context_items steer profiles and sessions',
    response: GenericRecoItems,
    body: Generic,
    handler: ({ auth, db, body }) => reco.generic(auth, db, body, { ...query(body, Generic), explain: true }),
  }),
  dbRoute(ALL4, {
    method: 'POST',
    path: 'recommendation/items-properties/items/',
    summary: 'items like those holding the given property values',
    response: RecoItems,
    body: PropertiesItems,
    handler: async ({ auth, db, body }) => {
      const a = await reco.propertiesToItems(auth, db, body.item_properties, query(body, PropertiesItems));
      return scenarioName(body.scenario) === undefined && !body.skip_default_scenario
        ? a
        : withWarning(a, 'scenarios do not apply to this endpoint (it has no reco_type)');
    },
  }),
  // Not for frontend tokens: it reads the tastes of users other than the token's own.
  recoRoute(BACKENDS, {
    method: 'POST',
    path: 'recommendation/users-groups/items/',
    recoType: 'profiles_group_to_items',
    summary: 'items for a group of users; consensus_factor 0 ranks by the mean score, 1 by the lowest',
    response: RecoItems,
    body: GroupItems,
    handler: ({ auth, db, body }, recoType) =>
      reco.groupToItems(auth, db, recoType, groupMembers(body), body.consensus_factor ?? 0, query(body, GroupItems)),
  }),
];

// The group's user ids, from `users_id` or `users` (exactly one of them).
function groupMembers(body: { users_id?: unknown[]; users?: { user_id: unknown }[] }): unknown[] {
  if ((body.users_id === undefined) === (body.users === undefined)) {
    throw wrongData('WRONG_DATA_TYPE', 'give the group as either users_id or users', { field: 'users_id' });
  }
  return body.users_id ?? body.users!.map((u) => u.user_id);
}
