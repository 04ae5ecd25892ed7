// Spec "Databases, tasks, ratings": databases of the organisation and task records.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { ADMINS, ALL4, BACKENDS, type Role } from '../contract/roles.js';
import { authedRoute, dbRoute, type Route } from '../contract/routes.js';
import { LongText, Metadata, Name, Page } from '../schemas/common.js';
import { currentDatabase, type DatabaseService } from '../services/databases/databases.js';
import {
  Created,
  CurrentDatabase,
  DatabaseCounts,
  DatabaseList,
  DatabasePreview,
  DatabaseStatus,
  DatabaseUsage,
} from '../schemas/responses.js';
import { TaskRecords } from '../schemas/model-answers.js';

const IdTypeName = Type.String({ minLength: 1, maxLength: 16 });
// The database's sizes are the business's numbers: the dashboard shows them to demo_viewer accounts
// (its read-only overview), never to frontend tokens, which live in end users' browsers.
const COUNT_READERS: readonly Role[] = [...BACKENDS, 'demo_viewer'];

export const databaseRoutes = (databases: DatabaseService): Route[] => [
  ...organisationRoutes(databases),
  ...currentDatabaseRoutes(databases),
  ...databaseFactsRoutes(databases),
];

// The organisation's databases: create and list.
const organisationRoutes = (databases: DatabaseService): Route[] => [
  authedRoute(ADMINS, {
    method: 'POST',
    path: 'databases/',
    summary: 'create a database',
    response: Created,
    body: Type.Object({
      name: Name,
      description: LongText,
      item_id_type: IdTypeName,
      user_id_type: IdTypeName,
      session_id_type: Type.Optional(IdTypeName),
      metadata: Type.Optional(Metadata),
    }),
    handler: async ({ auth, body }) => ({ id: await databases.create(auth.org, body) }),
  }),
  authedRoute(ADMINS, {
    method: 'GET',
    path: 'databases/',
    summary: 'databases of the organisation, a page at a time',
    response: DatabaseList,
    query: Page(LIMITS.databasesAmtDefault, LIMITS.databasesAmtMax),
    handler: ({ auth, query }) => databases.page(auth.org, query.page ?? 1, query.amt ?? LIMITS.databasesAmtDefault),
  }),
];

// The token's database: read, change, preview a change, delete.
const currentDatabaseRoutes = (databases: DatabaseService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'databases/current/',
    summary: 'the database of the token',
    response: CurrentDatabase,
    handler: async ({ auth, db }) => {
      const d = await databases.get(auth.org, db);
      return { ...currentDatabase(d), warnings: [] };
    },
  }),
  dbRoute(ADMINS, {
    method: 'PATCH',
    path: 'databases/current/',
    summary: 'rename or describe the database of the token; metadata is deep-merged (RFC 7396, preserve appends lists)',
    response: null,
    body: Type.Object({
      name: Type.Optional(Name),
      description: Type.Optional(LongText),
      metadata: Type.Optional(Metadata),
      preserve: Type.Optional(Type.Boolean()),
    }),
    handler: ({ auth, db, body }) => databases.patch(auth.org, db, body),
  }),
  // Called by the hosted service's Python client (beyond the spec); roles as PATCH databases/current/.
  dbRoute(ADMINS, {
    method: 'PATCH',
    path: 'databases/current/preview/',
    summary: 'what PATCH databases/current/ would make of the description and metadata; stores nothing',
    response: DatabasePreview,
    body: Type.Object({ description: Type.Optional(LongText), metadata: Type.Optional(Metadata), preserve: Type.Optional(Type.Boolean()) }),
    handler: ({ auth, db, body }) => databases.preview(auth.org, db, body),
  }),
  dbRoute(ADMINS, {
    method: 'DELETE',
    path: 'databases/current/',
    summary: 'delete the database of the token and all its data',
    response: null,
    handler: ({ auth, db }) => databases.remove(auth.org, db),
  }),
];

// What the token's database is doing and holds: status, counts, usage, background tasks.
const databaseFactsRoutes = (databases: DatabaseService): Route[] => [
  dbRoute(ALL4, {
    method: 'GET',
    path: 'databases/current/status/',
    summary: 'pending until the first model is trained, then ready',
    response: DatabaseStatus,
    handler: async ({ auth, db }) => ({ status: (await databases.get(auth.org, db)).status }),
  }),
  // recd's own (beyond the spec), for the dashboard's overview.
  dbRoute(COUNT_READERS, {
    method: 'GET',
    path: 'databases/current/counts/',
    summary: 'how many items, users, ratings, interactions and sessions the database holds',
    response: DatabaseCounts,
    handler: async ({ auth, db }) => ({ ...(await databases.counts(auth.org, db)), warnings: [] }),
  }),
  dbRoute(COUNT_READERS, {
    method: 'GET',
    path: 'databases/current/usage/',
    summary: "the database's quotas and what it uses of each",
    response: DatabaseUsage,
    handler: async ({ auth, db }) => ({ ...(await databases.usage(auth.org, db)), warnings: [] }),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'tasks/<task_name>/recents/',
    summary: 'recent runs of a background task, newest first',
    response: TaskRecords,
    params: Type.Object({ task_name: Type.String({ pattern: '^[a-z0-9_]{1,64}$' }) }),
    query: Page(LIMITS.tasksAmtDefault, LIMITS.tasksAmtMax),
    handler: async ({ auth, db, params, query }) => ({
      tasks: await databases.recentTasks(auth.org, db, params.task_name, query.page ?? 1, query.amt ?? LIMITS.tasksAmtDefault),
    }),
  }),
];
