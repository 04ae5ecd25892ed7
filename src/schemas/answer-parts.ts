// The pieces answers are made of. Every object of an answer is closed (`additionalProperties:
// false`) unless its keys are data rather than fields — metadata, property values by property
// name — and those open maps say so in their description (the OpenAPI test holds answers to this).
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { ROLES } from '../contract/roles.js';

export const Role = Type.Union(ROLES.map((r) => Type.Literal(r)));
export const Warnings = Type.Array(Type.String(), { description: 'what the server ignored or changed in the request' });
export const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
// Item, user and session ids as the database's id types show them: numbers for uint32, text otherwise.
export const Id = Type.Union([Type.String(), Type.Integer()]);
export const Cursor = Type.String({ description: "the next page's cursor; empty on the last page" });
export const Seconds = Type.Number({ description: 'seconds since the epoch' });

// A closed object.
export const Closed = <P extends TProperties>(props: P, options: { description?: string } = {}): TObject<P> =>
  Type.Object(props, { ...options, additionalProperties: false });

// A closed answer object: its fields and the spec's optional `warnings`.
export const Answer = <P extends TProperties>(props: P, options: { description?: string } = {}) =>
  Closed({ ...props, warnings: Type.Optional(Warnings) }, options);

// An object whose keys are data; `description` says what they are.
export const OpenMap = <T extends TSchema>(value: T, description: string) => Type.Record(Type.String(), value, { description });

export const Meta = OpenMap(Type.Unknown(), 'metadata: any JSON object, as the client gave it');

// A property value: a number, text or boolean, or a list of them for a repeated property.
const Scalar = Type.Union([Type.Number(), Type.String(), Type.Boolean()]);
export const PropertyValue = Type.Union([Scalar, Type.Array(Scalar)]);
