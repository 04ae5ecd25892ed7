// ApiError: the one exception type that carries a spec error to the HTTP layer.
import { ERROR_TABLE, type ErrorDataName, type ErrorName } from './table.js';

export type ErrorData = Record<string, unknown> & { name: string };

export class ApiError<N extends ErrorName = ErrorName> extends Error {
  readonly errorName: N;
  readonly data: ErrorData;
  readonly headers: Record<string, string>;
  override name = 'ApiError';

  constructor(errorName: N, name: ErrorDataName<N>, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.errorName = errorName;
    this.data = { name, ...extra };
    this.headers = headers;
  }

  get status(): number {
    return ERROR_TABLE[this.errorName].status;
  }

  get code(): number {
    return ERROR_TABLE[this.errorName].code;
  }

  body(): { error_code: number; error_name: string; message: string; error_data: ErrorData } {
    return { error_code: this.code, error_name: this.errorName, message: this.message, error_data: this.data };
  }
}

// Short constructors for the shapes the spec asks for (type/key on duplicates and missing resources,
// error on auth and forbidden errors).
export const wrongData = (name: ErrorDataName<'WrongData'>, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError('WrongData', name, message, { error: message, ...extra });

export const notFound = (name: ErrorDataName<'NotFoundError'>, type: string, key: unknown, message?: string) =>
  new ApiError('NotFoundError', name, message ?? `${type} ${JSON.stringify(key)} not found`, { type, key });

export const duplicated = (name: ErrorDataName<'DuplicatedError'>, type: string, key: unknown, message?: string) =>
  new ApiError('DuplicatedError', name, message ?? `${type} ${JSON.stringify(key)} already exists`, { type, key });

export const authError = (name: ErrorDataName<'AuthError'>, message: string) => new ApiError('AuthError', name, message, { error: message });

export const forbidden = (name: ErrorDataName<'ForbiddenError'>, message: string) =>
  new ApiError('ForbiddenError', name, message, { error: message });

export const unavailable = (name: ErrorDataName<'ServerUnavailable'>, message: string) =>
  new ApiError('ServerUnavailable', name, message, { error: message });
