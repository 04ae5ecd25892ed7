// Shared TypeBox pieces for request schemas.
import { Kind, Type, TypeRegistry, type TSchema } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { isColumnar, type ColumnarBody } from '../contract/columnar.js';

export const Metadata = Type.Record(Type.String(), Type.Unknown());
export const Email = Type.String({ minLength: 3, maxLength: 254 });
export const Secret = Type.String({ minLength: 1, maxLength: LIMITS.textFieldMax });
export const ShortText = Type.String({ maxLength: LIMITS.textFieldMax });
export const Name = Type.String({ minLength: 1, maxLength: LIMITS.nameMax });
export const LongText = Type.String({ maxLength: 64 * 1024 });
export const Timestamp = Type.Number({ minimum: LIMITS.timestampMin, maximum: LIMITS.timestampMax });
export const AnyId = Type.Union([Type.String({ minLength: 1, maxLength: LIMITS.idMax }), Type.Integer({ minimum: 0 })]);
export const CreatableRole = Type.Union([
  Type.Literal('manager'),
  Type.Literal('backend'),
  Type.Literal('frontend'),
  Type.Literal('demo_viewer'),
]);

export const Page = (amtDefault: number, amtMax: number) =>
  Type.Object({
    amt: Type.Optional(Type.Integer({ minimum: 1, maximum: amtMax, default: amtDefault })),
    page: Type.Optional(Type.Integer({ minimum: 1 })),
  });

// Bulk rows: a list of `item`, or a columnar body a codec made of them (Rows in contract/columnar.ts);
// at most maxItems rows either way.
TypeRegistry.Set<{ maxRows: number }>('ColumnarRows', (schema, value) => isColumnar(value) && value.length <= schema.maxRows);
export const RowsOf = <T extends TSchema>(item: T, maxItems: number) =>
  Type.Union([Type.Array(item, { maxItems }), Type.Unsafe<ColumnarBody>({ [Kind]: 'ColumnarRows', maxRows: maxItems })]);
