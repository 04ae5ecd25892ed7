// The shapes of answers (spec: recommendation-api.md), for the API description: route rows name
// them as `response`, and the OpenAPI tests check real answers against them. Accounts, login,
// databases, properties, ratings and recommendations here; the other families in *-answers.ts.
import { Type } from '@sinclair/typebox';
import { SOURCES } from '../contract/sources.js';
import { Answer, Closed, Cursor, Id, Meta, Nullable, OpenMap, Role, Seconds } from './answer-parts.js';

export const Greeting = Type.String({ description: 'a greeting' });
export const Created = Answer({ id: Type.String({ description: 'the new record' }) });

const Individual = Closed({
  id: Type.String(),
  role: Role,
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  email: Type.String(),
  metadata: Meta,
});
const KeyFields = {
  id: Type.String(),
  created_timestamp: Seconds,
  expiration_timestamp: Nullable(Seconds),
  is_expired: Type.Boolean(),
  metadata: Meta,
};
export const AccountList = Answer({
  individual_accounts: Type.Array(Individual),
  service_accounts: Type.Array(Closed({ name: Type.String(), role: Role, metadata: Meta, keys: Type.Array(Closed(KeyFields)) })),
});
export const CreatedKey = Answer({ ...KeyFields, key: Type.String({ description: 'the secret, shown this once' }) });

const DbStatus = Type.Union([Type.Literal('pending'), Type.Literal('ready')]);
const DatabaseFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  item_id_type: Type.String(),
  user_id_type: Type.String(),
  session_id_type: Type.String(),
};
export const DatabaseList = Answer({
  databases: Type.Array(Closed({ ...DatabaseFields, metadata: Meta })),
  has_next: Type.Boolean(),
  next_page: Nullable(Type.Integer()),
});
export const CurrentDatabase = Answer({ ...DatabaseFields, metadata: Meta, status: DbStatus });
export const DatabaseStatus = Answer({ status: DbStatus });
// recd's own (GET databases/current/counts/): what the database holds, from counts kept as it is written.
const Count = (description: string) => Type.Integer({ minimum: 0, description });
export const DatabaseCounts = Answer({
  items: Count('items with a record, as the items listing shows them'),
  users: Count('users with a record, as the users listing shows them (ids seen only in feedback are not counted)'),
  ratings: Count('(user, item) pairs rated, explicitly or inferred from interactions, as the ratings listing shows them'),
  interactions: Count('interactions stored, of users and of sessions'),
  sessions: Count('sessions holding at least one stored interaction, resolved or not'),
});
// recd's own (GET databases/current/usage/): the database's quotas (docs/api-choices.md, "Quotas")
// and what it uses of each; used is null where nothing is counted against the limit as a total.
const Use = (description: string) =>
  Closed({ used: Nullable(Type.Integer({ minimum: 0 })), limit: Type.Integer({ minimum: 0 }) }, { description });
export const DatabaseUsage = Answer({
  items: Use('items known (with properties, or named by feedback)'),
  users: Use('users known (with properties, or named by feedback)'),
  ratings: Use('ratings held, explicit or inferred'),
  interactions: Use('interactions held, of users and of sessions'),
  item_properties: Use('item property definitions'),
  user_properties: Use('user property definitions'),
  record_bytes: Use("bytes of one item's or user's stored properties (a limit per record; used is null)"),
  training_seconds: Use("seconds of one training run (a limit per run; used: the database's last retrain's, null before one ended)"),
  requests_per_second: Use("the organisation's requests per second across all processes (0: no limit; used is null)"),
});
// A database's description and metadata, as its preview shows them before and after a PATCH.
const DescribedMetadata = Closed({ description: Type.String(), metadata: Meta });
export const DatabasePreview = Answer({ metadata_old: DescribedMetadata, metadata_new: DescribedMetadata });
export const OrgMetadata = Answer({ metadata: Meta });
export const OrgPreview = Answer({ metadata_old: Meta, metadata_new: Meta });

// Login metadata: the account's own, with the two timestamps the login adds.
const LoginMetadata = Type.Object(
  { previous_login_timestamp: Nullable(Seconds), password_updated_timestamp: Nullable(Seconds) },
  { additionalProperties: Type.Unknown(), description: "the account's metadata (any JSON) with the two timestamps login adds" },
);
const ServiceAccount = Closed({ name: Type.String(), role: Role, metadata: Meta });
export const LoginAnswer = Answer({
  org_id: Type.String(),
  token: Type.String({ description: 'the access token (a JWT) to send as `Authorization: Bearer …`' }),
  role: Role,
  refresh_token: Type.String(),
  account: Type.Union([Closed({ ...Individual.properties, metadata: LoginMetadata }), ServiceAccount], {
    description: 'an individual or a service account',
  }),
  database: Type.Optional(Closed({ ...DatabaseFields, status: DbStatus })),
  frontend_user_id: Type.Optional(Id),
  frontend_session_id: Type.Optional(Id),
});
export const TokenDescription = Answer({
  org_id: Type.String(),
  account: Closed({ id: Type.String(), role: Role }),
  database: Type.Optional(
    Closed({
      id: Type.String(),
      item_id_type: Type.String(),
      user_id_type: Type.String(),
      session_id_type: Type.String(),
      frontend_user_id: Nullable(Id),
      frontend_session_id: Nullable(Id),
    }),
  ),
  frontend_user_id: Type.Optional(Id),
});

// recd's own: the answer's id, for telling what was shown apart from every other answer.
const RecommendationId = Type.String({ description: "this answer's id, unique to it (recd's own field)" });
const Explained = {
  evaluated_scenarios: Type.Optional(Type.Array(Type.String(), { description: 'the scenarios applied, when asked for' })),
};
// recd's own (explain=true): why each item is there, in the order of items_id.
const Explanations = Type.Optional(
  Type.Array(
    Closed({
      item_id: Id,
      source: Type.Union(SOURCES.map((x) => Type.Literal(x))),
      score: Nullable(Type.Number({ description: 'what the ranking orders by; null for a precomputed table' })),
      because: Type.Array(Id, { description: "up to three of the user's or session's items that led to it most, or the query item" }),
      rules: Type.Array(Type.String(), { description: 'the business rules that passed or moved it' }),
    }),
    { description: "why each item is there, when explain=true (recd's own)" },
  ),
);
export const RecoItems = Answer({
  items_id: Type.Array(Id, { description: 'best first' }),
  next_cursor: Cursor,
  recommendation_id: RecommendationId,
  ...Explained,
  explanations: Explanations,
});
// POST recommendation/generic/items/: which recommendation it ran, and the scenarios it applied.
export const GenericRecoItems = Answer({
  items_id: RecoItems.properties.items_id,
  next_cursor: Cursor,
  recommendation_id: RecommendationId,
  evaluated_scenarios: Type.Array(Type.String(), { description: 'the scenarios applied' }),
  explanations: Explanations,
  reco_type: Type.Union(
    ['item_to_items', 'profile_to_items', 'profile_to_items_w_ctx_items', 'session_to_items', 'session_to_items_w_ctx_items'].map((t) =>
      Type.Literal(t),
    ),
  ),
});
export const PrecomputedItems = Answer({
  items_id: Type.Array(Id, { description: "the table's row, best first" }),
  recommendation_id: RecommendationId,
  explanations: Explanations,
});
export const RecoValues = Answer({
  properties: Type.Array(Type.Union([Type.Number(), Type.String(), Type.Boolean()]), { description: 'property values, best first' }),
  ...Explained,
});

const PropertyDefinitionFields = {
  property_name: Type.String(),
  value_type: Type.String(),
  repeated: Type.Boolean(),
  metadata: Type.Optional(Meta),
};
export const PropertyDefinition = Answer(PropertyDefinitionFields, { description: 'metadata: item properties only' });
export const PropertyDefinitions = Answer({ properties: Type.Array(Closed(PropertyDefinitionFields)) });

const Rating = { item_id: Id, rating: Type.Number(), timestamp: Seconds };
export const RatingsPage = Answer({
  ratings: Type.Array(Closed({ user_id: Id, ...Rating })),
  has_next: Type.Boolean(),
  next_cursor: Cursor,
});
export const UserRatings = Answer({ user_ratings: Type.Array(Closed(Rating)), has_next: Type.Boolean() });
export const Written = Answer({}, { description: 'done; warnings only' });

// The answer of openapi.json: the document's top level; what is under paths and components is
// OpenAPI's own (https://spec.openapis.org/oas/v3.1.0).
export const OpenApiDocument = Closed({
  openapi: Type.Literal('3.1.0'),
  info: Closed({ title: Type.String(), version: Type.String() }),
  servers: Type.Array(Closed({ url: Type.String() })),
  paths: OpenMap(Type.Unknown(), 'path items by path (OpenAPI 3.1 Path Item objects)'),
  components: Closed({
    schemas: OpenMap(Type.Unknown(), 'JSON Schemas by name'),
    securitySchemes: OpenMap(Type.Unknown(), 'OpenAPI security schemes by name'),
  }),
});
