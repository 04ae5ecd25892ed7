// Spec "Item properties" and "User properties": property definitions.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { ALL4, BACKENDS, type Role } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import type { PropertyKind, PropertyService } from '../services/catalogue/properties.js';
import { PropertyDefinition, PropertyDefinitions } from '../schemas/responses.js';

const NameParam = Type.Object({ property_name: Type.String({ minLength: 1, maxLength: 256 }) });

function definitionRoutes(props: PropertyService, kind: PropertyKind, prefix: string, listRoles: readonly Role[]): Route[] {
  const body = {
    property_name: Type.String(), // the service checks names, with WRONG_PARAMETER
    value_type: Type.String({ minLength: 1, maxLength: LIMITS.valueTypeMax }),
    repeated: Type.Optional(Type.Boolean()),
  };
  return [
    dbRoute(listRoles, {
      method: 'GET',
      path: `${prefix}/`,
      summary: `${kind} property definitions`,
      response: PropertyDefinitions,
      handler: ({ auth, db }) => props.list(auth.org, db, kind),
    }),
    dbRoute(BACKENDS, {
      method: 'POST',
      path: `${prefix}/`,
      summary: `define a ${kind} property`,
      response: null,
      body: kind === 'item' ? Type.Object({ ...body, metadata: Type.Optional(Type.Unknown()) }) : Type.Object(body),
      handler: ({ auth, db, body }) => props.create(auth.org, db, kind, body),
    }),
    dbRoute(BACKENDS, {
      method: 'GET',
      path: `${prefix}/<property_name>/`,
      summary: `one ${kind} property definition`,
      response: PropertyDefinition,
      params: NameParam,
      handler: ({ auth, db, params }) => props.get(auth.org, db, kind, params.property_name),
    }),
    dbRoute(BACKENDS, {
      method: 'DELETE',
      path: `${prefix}/<property_name>/`,
      summary: `delete a ${kind} property definition`,
      response: null,
      params: NameParam,
      handler: ({ auth, db, params }) => props.remove(auth.org, db, kind, params.property_name),
    }),
  ];
}

export const propertyRoutes = (props: PropertyService): Route[] => [
  ...definitionRoutes(props, 'item', 'items-properties', ALL4),
  ...definitionRoutes(props, 'user', 'users-properties', BACKENDS),
];
