// Shared TypeBox pieces for request schemas.
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';

export const Metadata = Type.Record(Type.String(), Type.Unknown());
export const Email = Type.String({ minLength: 3, maxLength: 254 });
export const Secret = Type.String({ minLength: 1, maxLength: LIMITS.textFieldMax });
export const ShortText = Type.String({ maxLength: LIMITS.textFieldMax });
export const Name = Type.String({ minLength: 1, maxLength: LIMITS.nameMax });
export const LongText = Type.String({ maxLength: 64 * 1024 });
export const Timestamp = Type.Number({ minimum: LIMITS.timestampMin, maximum: LIMITS.timestampMax });
export const AnyId = Type.Union([Type.String({ minLength: 1, maxLength: LIMITS.idMax }), Type.Integer({ minimum: 0 })]);
export const CreatableRole = Type.Union([Type.Literal('manager'), Type.Literal('backend'), Type.Literal('frontend'), Type.Literal('demo_viewer')]);

export const Page = (amtDefault: number, amtMax: number) =>
  Type.Object({
    amt: Type.Optional(Type.Integer({ minimum: 1, maximum: amtMax, default: amtDefault })),
    page: Type.Optional(Type.Integer({ minimum: 1 })),
  });
