// Spec "Item property values, single item", "User property values" (single), and their deprecated
// aliases without the `properties/` segment.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import type { Claims } from '../contract/claims.js';
import { ALL4, BACKENDS, type Role } from '../contract/roles.js';
import { dbRoute, reply, withWarning, type Route } from '../contract/routes.js';
import type { Rows } from '../contract/columnar.js';
import { RowsOf } from '../schemas/common.js';
import type { EntityKind, EntityService } from '../services/catalogue/entities.js';
import type { M2m } from '../services/catalogue/entity-values.js';
import { idParams } from '../schemas/ids.js';
import { EntitiesWritten, EntityAnswer, EntityList, EntityPage, EntityPatched, EntityWritten } from '../schemas/entity-answers.js';

const Values = Type.Record(Type.String(), Type.Unknown());
const DEPRECATED = (path: string) => `deprecated endpoint: use ${path}`;

// path: the route's pattern, with `<item_id>` or `<user_id>`; deprecatedFor: the path replacing it.
function singleRoutes(
  entities: EntityService,
  kind: EntityKind,
  path: string,
  readRoles: readonly Role[],
  deprecatedFor?: string,
): Route[] {
  const param = `${kind}_id`;
  const note = deprecatedFor && DEPRECATED(deprecatedFor);
  const Params = idParams(param);
  const id = (params: Record<string, string>) => params[param]!;
  return [
    dbRoute(readRoles, {
      method: 'GET',
      path,
      summary: `property values of one ${kind}`,
      response: EntityAnswer(kind),
      params: Params,
      // Answered in the same tick when the process holds the catalogue (no await on the hot path).
      handler: ({ auth, db, params }) => {
        const r = entities.get(auth, db, kind, id(params));
        return r instanceof Promise ? r.then((v) => withWarning(v, note)) : withWarning(r, note);
      },
    }),
    dbRoute(BACKENDS, {
      method: 'PUT',
      path,
      summary: `create or replace one ${kind}`,
      statuses: [200, 202], // 202 with wait_for_completion: false
      response: EntityWritten,
      params: Params,
      body: Type.Object({ [kind]: Values, wait_for_completion: Type.Optional(Type.Boolean()) }),
      handler: async ({ auth, db, params, body }) => {
        const r = await entities.put(auth, db, kind, id(params), body[kind] as Record<string, unknown>, body.wait_for_completion !== false);
        return reply(r.accepted ? 202 : 200, withWarning({ warnings: r.warnings }, note));
      },
    }),
    dbRoute(BACKENDS, {
      method: 'PATCH',
      path,
      summary: `change some property values of one ${kind}`,
      response: EntityPatched(kind),
      params: Params,
      body: Type.Object({ [kind]: Values, create_if_missing: Type.Optional(Type.Boolean()) }),
      handler: async ({ auth, db, params, body }) =>
        withWarning(
          await entities.patch(auth, db, kind, id(params), body[kind] as Record<string, unknown>, body.create_if_missing === true),
          note,
        ),
    }),
    dbRoute(BACKENDS, {
      method: 'DELETE',
      path,
      summary: `remove the property values of one ${kind}`,
      response: null,
      params: Params,
      handler: ({ auth, db, params }) => entities.remove(auth, db, kind, [id(params)]),
    }),
  ];
}

const MAX_RECORDS = 100_000;
const Ids = Type.Array(Type.Union([Type.String({ maxLength: 64 }), Type.Number()]), { maxItems: MAX_RECORDS });

// path: `items-bulk/properties/` or a deprecated alias; listPath likewise.
function bulkRoutes(
  entities: EntityService,
  kind: EntityKind,
  path: string,
  listPath: string,
  listRoles: readonly Role[],
  deprecatedFor?: string,
): Route[] {
  const plural = `${kind}s`;
  const note = deprecatedFor && DEPRECATED(deprecatedFor);
  const records = {
    [plural]: RowsOf(Values, MAX_RECORDS),
    [`${plural}_m2m`]: Type.Optional(
      Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }), array: RowsOf(Values, 10 * MAX_RECORDS) })),
    ),
    wait_for_completion: Type.Optional(Type.Boolean()),
  };
  // Pickled numpy structured arrays reach the service as columnar bodies.
  const columnar = [plural, `${plural}_m2m`];
  const write =
    (mode: 'replace' | 'merge') =>
    async ({ auth, db, body }: { auth: Claims; db: string; body: Record<string, unknown> }) => {
      const r = await entities.bulk(auth, db, kind, {
        records: body[plural] as Rows,
        m2m: body[`${plural}_m2m`] as M2m[] | undefined,
        mode,
        createIfMissing: body.create_if_missing === true,
        wait: body.wait_for_completion !== false,
      });
      return reply(r.accepted ? 202 : 200, withWarning(r.body, note));
    };
  return [
    dbRoute(BACKENDS, {
      method: 'GET',
      path,
      summary: `${plural} a page at a time, optionally filtered`,
      listing: ({ query }) => query.amt ?? LIMITS.bulkListingAmtDefault,
      response: EntityPage(kind),
      query: Type.Object({
        amt: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.bulkListingAmtMax })),
        cursor: Type.Optional(Type.String({ maxLength: 256 })),
        properties: Type.Optional(Type.Array(Type.String())),
        filters: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100 })),
      }),
      handler: async ({ auth, db, query }) =>
        withWarning(await entities.page(auth, db, kind, { ...query, amt: query.amt ?? LIMITS.bulkListingAmtDefault }), note),
    }),
    dbRoute(BACKENDS, {
      method: 'PUT',
      path,
      summary: `create or replace many ${plural}`,
      response: EntitiesWritten(kind),
      statuses: [200, 202],
      body: Type.Object(records),
      columnar,
      handler: write('replace'),
    }),
    dbRoute(BACKENDS, {
      method: 'PATCH',
      path,
      summary: `change property values of many ${plural}`,
      statuses: [200, 202],
      response: EntitiesWritten(kind),
      body: Type.Object({ ...records, create_if_missing: Type.Optional(Type.Boolean()) }),
      columnar,
      handler: write('merge'),
    }),
    dbRoute(BACKENDS, {
      method: 'DELETE',
      path,
      summary: `remove the property values of many ${plural}`,
      response: null,
      body: Type.Object({ [`${plural}_id`]: Ids }),
      handler: ({ auth, db, body }) => entities.remove(auth, db, kind, body[`${plural}_id`] as unknown[]),
    }),
    dbRoute(listRoles, {
      method: 'POST',
      path: listPath,
      summary: `${plural} by id (missing ones left out)`,
      listing: ({ body }) => (body[`${plural}_id`] as unknown[]).length,
      response: EntityList(kind),
      body: Type.Object({ [`${plural}_id`]: Ids, properties: Type.Optional(Type.Array(Type.String())) }),
      handler: async ({ auth, db, body }) =>
        withWarning(await entities.list(auth, db, kind, body[`${plural}_id`] as unknown[], body.properties as string[] | undefined), note),
    }),
  ];
}

export const entityRoutes = (entities: EntityService): Route[] => [
  ...singleRoutes(entities, 'item', 'items/<item_id>/properties/', ALL4),
  ...singleRoutes(entities, 'item', 'items/<item_id>/', ALL4, 'items/<item_id>/properties/'),
  ...singleRoutes(entities, 'user', 'users/<user_id>/properties/', BACKENDS),
  ...singleRoutes(entities, 'user', 'users/<user_id>/', BACKENDS, 'users/<user_id>/properties/'),
  ...bulkRoutes(entities, 'item', 'items-bulk/properties/', 'items-bulk/properties/list/', ALL4),
  ...bulkRoutes(entities, 'item', 'items-bulk/', 'items-bulk/list/', ALL4, 'items-bulk/properties/'),
  ...bulkRoutes(entities, 'user', 'users-bulk/properties/', 'users-bulk/properties/list/', BACKENDS),
  ...bulkRoutes(entities, 'user', 'users-bulk/', 'users-bulk/list/', BACKENDS, 'users-bulk/properties/'),
];
