// Precomputed recommendation tables: their definitions and the endpoints that read them.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { ALL4, BACKENDS, dbRoute, type Route } from '../http/types.js';
import type { TableService } from '../services/tables.js';
import type { ScenarioService } from '../services/scenarios.js';
import { checked } from './recommendations.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' });
const Id = Type.String({ minLength: 1, maxLength: LIMITS.idMax });
const Read = Type.Object({ table: Type.Optional(Type.String({ maxLength: 64 })), scenario: Type.Optional(Type.Unknown()), skip_default_scenario: Type.Optional(Type.Unknown()) });

export const tableRoutes = (tables: TableService, scenarios: Pick<ScenarioService, 'exists'>): Route[] => [
  dbRoute(BACKENDS, {
    method: 'PUT',
    path: 'precomputed-tables/<name>/',
    summary: 'define a precomputed table (item_to_items or profile_to_items, amt items per row) and queue its build',
    params: Type.Object({ name: Name }),
    body: Type.Object({ reco_type: Type.Unknown(), amt: Type.Optional(Type.Unknown()) }),
    handler: ({ db, params, body }) => tables.define(db, params.name!, body.reco_type, body.amt),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'precomputed-tables/',
    summary: 'the precomputed tables of the database and when each was built',
    handler: ({ db }) => tables.list(db),
  }),
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'precomputed-tables/<name>/',
    summary: 'delete a precomputed table',
    params: Type.Object({ name: Name }),
    handler: ({ db, params }) => tables.remove(db, params.name!),
  }),
  dbRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/precomputed/items/<item_id>/items/',
    recoType: 'precomputed_item_to_items',
    summary: 'items similar to an item, read from an item_to_items table',
    params: Type.Object({ item_id: Id }),
    query: Read,
    handler: ({ auth, db, params, query }) => checked(scenarios, db, 'precomputed_item_to_items', query, () => tables.forItem(auth, db, params.item_id!, query.table)),
  }),
  dbRoute(ALL4, {
    method: 'GET',
    path: 'recommendation/precomputed/users/<user_id>/items/',
    recoType: 'precomputed_profile_to_items',
    summary: 'items for a user, read from a profile_to_items table',
    params: Type.Object({ user_id: Id }),
    query: Read,
    handler: ({ auth, db, params, query }) => checked(scenarios, db, 'precomputed_profile_to_items', query, () => tables.forUser(auth, db, params.user_id!, query.table)),
  }),
];
