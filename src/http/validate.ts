// TypeBox validators compiled once per schema; failures become WrongData with the field's path.
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ApiError } from '../errors/api-error.js';

export type Validator = (value: unknown) => void;

export function compileValidator(schema: TSchema, where: 'body' | 'query' | 'path'): Validator {
  const check: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
  const name = where === 'body' ? 'WRONG_DATA_TYPE' : 'WRONG_PARAMETER';
  return (value) => {
    if (check.Check(value)) return;
    const first = check.Errors(value).First();
    const field = first?.path ? first.path.replace(/^\//, '').replace(/\//g, '.') : '';
    const what = field === '' ? where : `${where === 'body' ? '' : `${where} `}field ${JSON.stringify(field)}`;
    const message = `${what}: ${first?.message ?? 'invalid'}`;
    throw new ApiError('WrongData', name, message, { error: message, ...(field ? { field } : {}) });
  };
}
