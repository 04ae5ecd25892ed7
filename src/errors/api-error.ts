// ApiError: the one exception type that carries a spec error to the HTTP layer.
import { ERROR_TABLE, type ErrorDataName, type ErrorName } from './table.js';

export type ErrorData = Record<string, unknown> & { name: string };

// Input echoed in an error is shown cut to this many characters: a 1 MB id must not make a 2 MB
// error body (message and error_data.error both quote it).
export const SHOWN_INPUT_CHARS = 100;
// A message longer than this is cut too, whatever made it long.
export const MESSAGE_MAX_CHARS = 1000;

export class ApiError<N extends ErrorName = ErrorName> extends Error {
  readonly errorName: N;
  readonly data: ErrorData;
  readonly headers: Record<string, string>;
  override name = 'ApiError';

  constructor(
    errorName: N,
    name: ErrorDataName<N>,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(shownMessage(message));
    this.errorName = errorName;
    this.data = { name, ...shownData(extra, message, this.message) };
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

// A request refused for its size: the WrongData body (the spec's table has no class for it), with
// the HTTP status that says which part is too large (413 body, 414 URL), so that proxies and clients
// that go by status alone know not to retry it as it is.
export class TooLarge extends ApiError<'WrongData'> {
  constructor(
    private readonly httpStatus: 413 | 414,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super('WrongData', 'WRONG_PARAMETER', message, { error: message, ...extra });
  }

  override get status(): number {
    return this.httpStatus;
  }
}

// A string as an error shows it: whole when short, else its first SHOWN_INPUT_CHARS characters, an
// ellipsis and its length.
export function shown(s: string, max = SHOWN_INPUT_CHARS): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

// Messages quote input with JSON.stringify; a quoted string longer than SHOWN_INPUT_CHARS is cut
// where it stands, so every message is bounded without each caller knowing the rule.
const LONG_QUOTED = new RegExp(`"((?:[^"\\\\]|\\\\.){${SHOWN_INPUT_CHARS + 1},})"`, 'g');
function shownMessage(message: string): string {
  if (message.length <= SHOWN_INPUT_CHARS) return message; // the usual case: nothing to scan
  const cut = message.replace(LONG_QUOTED, (_, inner: string) => `"${shown(inner)}"`);
  return shown(cut, MESSAGE_MAX_CHARS);
}

// error_data values: a repeat of the message (error_data.error) gets the message's cut, other long
// strings the plain one, also inside arrays and objects one level down.
function shownData(extra: Record<string, unknown>, message: string, cutMessage: string): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const k in extra) {
    const v = extra[k];
    const s = v === message ? cutMessage : shownValue(v, 1);
    if (s !== v) (out ??= { ...extra })[k] = s;
  }
  return out ?? extra;
}

function shownValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return shown(v);
  if (depth === 0 || typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const s = shownValue(x, depth - 1);
      if (s !== x) (out ??= [...v])[i] = s;
    });
    return out ?? v;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return v;
  const o = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in o) {
    const s = shownValue(o[k], depth - 1);
    if (s !== o[k]) (out ??= { ...o })[k] = s;
  }
  return out ?? v;
}

// Short constructors for the shapes the spec asks for (type/key on duplicates and missing resources,
// error on auth and forbidden errors).
export const wrongData = (name: ErrorDataName<'WrongData'>, message: string, extra: Record<string, unknown> = {}) =>
  new ApiError('WrongData', name, message, { error: message, ...extra });

export const notFound = (name: ErrorDataName<'NotFoundError'>, type: string, key: unknown, message?: string) =>
  new ApiError('NotFoundError', name, message ?? `${type} ${JSON.stringify(key)} not found`, { type, key });

export const duplicated = (name: ErrorDataName<'DuplicatedError'>, type: string, key: unknown, message?: string) =>
  new ApiError('DuplicatedError', name, message ?? `${type} ${JSON.stringify(key)} already exists`, { type, key });

export const authError = (name: ErrorDataName<'AuthError'>, message: string) =>
  new ApiError('AuthError', name, message, { error: message });

export const forbidden = (name: ErrorDataName<'ForbiddenError'>, message: string) =>
  new ApiError('ForbiddenError', name, message, { error: message });

export const unavailable = (name: ErrorDataName<'ServerUnavailable'>, message: string) =>
  new ApiError('ServerUnavailable', name, message, { error: message });

// A database's quota (docs/api-choices.md, "Quotas") that the request would pass: 403, as the request
// is refused for what the database holds, not for its form; sending it again will not help until
// something is deleted or the operator raises the quota.
export const quotaExceeded = (quota: string, limit: number, used: number) =>
  new ApiError('ForbiddenError', 'QUOTA_EXCEEDED', `the database's ${quota} quota (${limit}) would be passed: it holds ${used}`, {
    error: `quota ${quota} reached`,
    quota,
    limit,
    used,
  });
