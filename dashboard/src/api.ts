// The dashboard's small typed fetch module: the API's login endpoints, a JWT kept in memory only
// (never in storage, where any script of the origin could read it), refreshed before it expires and
// once more when the API says it has.
import type { DatabaseCounts, LoginAnswer, Role } from './types';

export const API_BASE = '/v1';

// An error answer of the API, as the spec shapes it (error_name, error_code, error_data.name, message).
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    readonly errorCode: number | undefined,
    readonly cause_: string | undefined,
    message: string,
  ) {
    super(message);
  }

  // What a person reads: the API's message and its precise cause.
  get text(): string {
    return `${this.errorName}${this.cause_ ? ` (${this.cause_})` : ''}: ${this.message}`;
  }
}

export interface Session {
  token: string;
  refreshToken: string;
  role: Role;
  orgId: string;
  who: string; // email or service name
  database?: { id: string; name: string; status?: string; item_id_type: string; user_id_type: string; session_id_type?: string };
}

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

export interface Credentials {
  kind: 'individual' | 'service';
  login: string; // email, or a service account's name
  password: string; // password, or a service key
  dbName?: string;
}

// Refresh this long before the JWT's expiry.
const REFRESH_MARGIN_MS = 5 * 60_000;

export class Client {
  private session: Session | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refreshing: Promise<Session> | undefined;

  constructor(private readonly onSession: (s: Session | undefined) => void) {}

  get current(): Session | undefined {
    return this.session;
  }

  async signIn(c: Credentials): Promise<Session> {
    const db = c.dbName ? { db_name: c.dbName } : {};
    const answer =
      c.kind === 'individual'
        ? await this.send<LoginAnswer>('POST', 'login/individual/', { body: { email: c.login, password: c.password, ...db }, anonymous: true })
        : await this.send<LoginAnswer>('POST', 'login/service/', { body: { name: c.login, password: c.password, ...db }, anonymous: true });
    return this.adopt(answer, c.login);
  }

  // A token bound to another database of the organisation (root and manager switch databases).
  async useDatabase(dbId: string): Promise<Session> {
    const s = this.need();
    const answer = await this.send<LoginAnswer>('POST', 'login/refresh-token/', { body: { refresh_token: s.refreshToken, db_id: dbId }, anonymous: true });
    return this.adopt(answer, s.who);
  }

  signOut(): void {
    clearTimeout(this.timer);
    this.session = undefined;
    this.onSession(undefined);
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.call<T>('GET', path, { query });
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, { body });
  }
  put<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('PUT', path, { body });
  }
  patch<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('PATCH', path, { body });
  }
  delete<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('DELETE', path, { body });
  }

  // An authenticated call; an expired JWT is refreshed once and the call repeated.
  private async call<T>(method: string, path: string, o: { query?: Query; body?: unknown }): Promise<T> {
    try {
      return await this.send<T>(method, path, o);
    } catch (err) {
      if (!(err instanceof ApiFailure) || err.errorName !== 'JwtTokenExpired' || !this.session) throw err;
      await this.refresh();
      return this.send<T>(method, path, o);
    }
  }

  private refresh(): Promise<Session> {
    const s = this.need();
    this.refreshing ??= this.send<LoginAnswer>('POST', 'login/refresh-token/', {
      body: { refresh_token: s.refreshToken, ...(s.database ? { db_id: s.database.id } : {}) },
      anonymous: true,
    })
      .then((a) => this.adopt(a, s.who))
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private adopt(a: LoginAnswer, who: string): Session {
    const s: Session = { token: a.token, refreshToken: a.refresh_token, role: a.role, orgId: a.org_id, who, ...(a.database ? { database: a.database } : {}) };
    this.session = s;
    clearTimeout(this.timer);
    const exp = expiryOf(a.token);
    if (exp !== undefined) {
      const wait = Math.max(10_000, exp - Date.now() - REFRESH_MARGIN_MS);
      this.timer = setTimeout(() => void this.refresh().catch(() => this.signOut()), wait);
    }
    this.onSession(s);
    return s;
  }

  private need(): Session {
    if (!this.session) throw new ApiFailure(401, 'AuthError', 21, undefined, 'signed out');
    return this.session;
  }

  private async send<T>(method: string, path: string, o: { query?: Query; body?: unknown; anonymous?: boolean }): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (!o.anonymous) headers.authorization = `Bearer ${this.need().token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${API_BASE}/${path}${queryString(o.query)}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
    const text = await res.text();
    const body: unknown = text === '' ? undefined : safeJson(text);
    if (!res.ok) {
      const e = (body ?? {}) as { error_name?: string; error_code?: number; message?: string; error_data?: { name?: string } };
      throw new ApiFailure(res.status, e.error_name ?? `HTTP ${res.status}`, e.error_code, e.error_data?.name, e.message ?? (text || res.statusText));
    }
    return body as T;
  }
}

// Repeated parameters (filters, reranking) are sent once per value, as the spec's query strings do.
export function queryString(q: Query | undefined): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === '') continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, String(x));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// The JWT's exp in ms (its payload is readable; the signature is the server's business).
function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

// The counts of the token's database (root, manager, backend and demo_viewer; not frontend).
export const databaseCounts = (client: Client): Promise<DatabaseCounts> => client.get<DatabaseCounts>('databases/current/counts/');

export const errorText = (err: unknown): string => (err instanceof ApiFailure ? err.text : err instanceof Error ? err.message : String(err));
