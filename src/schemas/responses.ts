// The shapes of answers (spec: recommendation-api.md), for the API description: route rows name
// them as `response`, and the OpenAPI test checks real answers against them.
import { Type, type TSchema } from '@sinclair/typebox';
import { ROLES } from '../contract/roles.js';

const Role = Type.Union(ROLES.map((r) => Type.Literal(r)));
const Meta = Type.Record(Type.String(), Type.Unknown());
const Warnings = Type.Array(Type.String(), { description: 'what the server ignored or changed in the request' });
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

// An object answer: the fields named, `warnings`, and room for fields added later.
const Answer = <P extends Record<string, TSchema>>(props: P) => Type.Object({ ...props, warnings: Type.Optional(Warnings) }, { additionalProperties: true });

export const Greeting = Type.String({ description: 'a greeting' });
export const Created = Answer({ id: Type.Union([Type.String(), Type.Integer()], { description: 'the new record' }) });

const Individual = Type.Object({
  id: Type.String(),
  role: Role,
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  email: Type.String(),
  metadata: Meta,
});
const KeyFields = {
  id: Type.String(),
  created_timestamp: Type.Number(),
  expiration_timestamp: Nullable(Type.Number()),
  is_expired: Type.Boolean(),
  metadata: Meta,
};
export const AccountList = Answer({
  individual_accounts: Type.Array(Individual),
  service_accounts: Type.Array(Type.Object({ name: Type.String(), role: Role, metadata: Meta, keys: Type.Array(Type.Object(KeyFields)) })),
});
export const CreatedKey = Answer({ ...KeyFields, key: Type.String({ description: 'the secret, shown this once' }) });

const DbStatus = Type.Union([Type.Literal('pending'), Type.Literal('ready')]);
const DatabaseFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  item_id_type: Type.String(),
  user_id_type: Type.String(),
  session_id_type: Nullable(Type.String()),
};
export const DatabaseList = Answer({
  databases: Type.Array(Type.Object({ ...DatabaseFields, metadata: Meta })),
  has_next: Type.Boolean(),
  next_page: Nullable(Type.Integer()),
});
export const CurrentDatabase = Answer({ ...DatabaseFields, metadata: Meta, status: DbStatus });
export const DatabaseStatus = Answer({ status: DbStatus });

export const LoginAnswer = Answer({
  org_id: Type.String(),
  token: Type.String({ description: 'the access token (a JWT) to send as `Authorization: Bearer …`' }),
  role: Role,
  refresh_token: Type.String(),
  account: Type.Object({ role: Role }, { additionalProperties: true }),
  database: Type.Optional(Type.Object({ ...DatabaseFields, status: DbStatus })),
  frontend_user_id: Type.Optional(Type.Unknown()),
  frontend_session_id: Type.Optional(Type.Unknown()),
});
export const TokenDescription = Answer({
  org_id: Type.String(),
  account: Type.Object({ id: Type.String(), role: Role }),
  database: Type.Optional(Type.Object({ id: Type.String() }, { additionalProperties: true })),
});

const Id = Type.Union([Type.String(), Type.Integer()]);
export const RecoItems = Answer({
  items_id: Type.Array(Id, { description: 'best first' }),
  next_cursor: Type.String({ description: "the next page's cursor; empty on the last page" }),
  evaluated_scenarios: Type.Optional(Type.Array(Type.String())),
});
export const RecoValues = Answer({ properties: Type.Array(Type.Unknown(), { description: 'property values, best first' }), evaluated_scenarios: Type.Optional(Type.Array(Type.String())) });

const PropertyDefinitionFields = { property_name: Type.String(), value_type: Type.String(), repeated: Type.Boolean(), metadata: Type.Optional(Meta) };
export const PropertyDefinition = Type.Object(PropertyDefinitionFields);
export const PropertyDefinitions = Answer({ properties: Type.Array(Type.Object(PropertyDefinitionFields)) });

// Answers documented by their outline only: an object (with `warnings`) whose fields the spec describes.
export const ObjectAnswer = Answer({});
export const TaskQueued = Answer({ task_id: Type.String({ description: 'follow it at tasks/<task_name>/recents/' }) });
export const Resolution = Type.Union([Type.Literal('resolved'), Type.Literal('already-same'), Type.Literal('already-other')]);

const Rating = { item_id: Id, rating: Type.Number(), timestamp: Type.Number() };
export const RatingsPage = Answer({ ratings: Type.Array(Type.Object({ user_id: Id, ...Rating })), has_next: Type.Boolean(), next_cursor: Type.String() });
export const UserRatings = Answer({ user_ratings: Type.Array(Type.Object(Rating)), has_next: Type.Boolean() });
