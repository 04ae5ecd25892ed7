// Precomputed recommendation tables: their definitions and the endpoints that read them.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { ALL4, BACKENDS } from '../contract/roles.js';
import { dbRoute, recoRoute, type Route } from '../contract/routes.js';
import type { TableService } from '../services/reco/paging/precomputed-tables.js';
import type { RecommendService } from '../services/reco/recommend.js';
import { query } from './reco-query.js';
import { idParams } from '../schemas/ids.js';
import { PrecomputedTables, TaskQueued } from '../schemas/model-answers.js';
import { PrecomputedItems } from '../schemas/responses.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' });
// user_id (beyond the spec's parameters) selects A/B groups as on the other recommendation endpoints.
// amt is not a parameter here: only a scenario cuts a row.
const Read = Type.Object({
  table: Type.Optional(Type.String({ maxLength: 64 })),
  scenario: Type.Optional(Type.Unknown()),
  skip_default_scenario: Type.Optional(Type.Boolean()),
  user_id: Type.Optional(Type.String({ maxLength: LIMITS.idMax })),
  explain: Type.Optional(Type.Unknown()),
});

export const tableRoutes = (tables: TableService, reco: RecommendService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'PUT',
    path: 'precomputed-tables/<name>/',
    summary: 'define a precomputed table (item_to_items or profile_to_items, amt items per row) and queue its build',
    response: TaskQueued,
    params: Type.Object({ name: Name }),
    body: Type.Object({ reco_type: Type.Unknown(), amt: Type.Optional(Type.Unknown()) }),
    handler: ({ db, params, body }) => tables.define(db, params.name!, body.reco_type, body.amt),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'precomputed-tables/',
    summary: 'the precomputed tables of the database and when each was built',
    response: PrecomputedTables,
    handler: ({ db }) => tables.list(db),
  }),
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'precomputed-tables/<name>/',
    summary: 'delete a precomputed table',
    response: null,
    params: Type.Object({ name: Name }),
    handler: ({ db, params }) => tables.remove(db, params.name!),
  }),
  recoRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/precomputed/items/<item_id>/items/',
    recoType: 'precomputed_item_to_items',
    summary: 'items similar to an item, read from an item_to_items table',
    response: PrecomputedItems,
    params: idParams('item_id'),
    query: Read,
    handler: ({ auth, db, params, query: q }, recoType) =>
      reco.precomputed({ auth, db, recoType, q: query(q, Read), table: 'item_to_items', id: params.item_id! }),
  }),
  recoRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/precomputed/users/<user_id>/items/',
    frontend: 'user',
    recoType: 'precomputed_profile_to_items',
    summary: 'items for a user, read from a profile_to_items table',
    response: PrecomputedItems,
    params: idParams('user_id'),
    query: Read,
    handler: ({ auth, db, params, query: q }, recoType) =>
      reco.precomputed({ auth, db, recoType, q: query(q, Read), table: 'profile_to_items', id: params.user_id! }),
  }),
];
