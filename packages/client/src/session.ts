// The client's tokens: logs in when it has credentials and no token, renews the access token with the
// refresh token (single-use: the latest one is kept), logs in again when the refresh token is refused,
// runs one renewal at a time however many requests wait for it, and forgets it all on sign-out.
import type { Client } from 'openapi-fetch';
import { lifetimeOf } from './jwt.js';
import type { components, paths } from './schema.js';

export type ErrorBody = components['schemas']['Error'];
type JsonBody<P extends keyof paths> = paths[P] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;
export type LoginAnswer = paths['/login/root/']['post']['responses'][200]['content']['application/json'];

// How the client logs in: the body of POST login/root/, login/individual/ or login/service/.
export type Login =
  | { root: JsonBody<'/login/root/'> }
  | { individual: JsonBody<'/login/individual/'> }
  | { service: JsonBody<'/login/service/'> };
export interface DatabaseChoice {
  db_id?: string;
  db_name?: string;
}
export interface Tokens {
  token: string | undefined;
  refresh_token: string | undefined;
}

export interface SessionOptions {
  token?: string | undefined;
  refreshToken?: string | undefined;
  login?: Login | undefined;
  refreshBeforeSeconds?: number | undefined;
  now?: (() => number) | undefined;
  onTokens?: ((tokens: LoginAnswer) => void) | undefined;
}

// A token to send, or the error answer of the login or refresh that should have given one (made anew
// for each request that waited for it: a body is read once).
export type Bearer = { token: string | undefined } | { failed: () => Response };

// Renew this long before the token expires, or at half its lifetime when that comes later (short
// lifetimes), so a request does not leave with a token that expires on the way.
const REFRESH_BEFORE_SECONDS = 30;

export class Session {
  private tokens: Tokens;
  private login: Login | undefined;
  private renewing: Promise<Bearer> | undefined;
  // The database chosen by switchDatabase: a fresh login lands there too.
  private database: DatabaseChoice | undefined;
  private readonly now: () => number;
  // Bumped by signOut: the tokens a renewal under way brings back afterwards are dropped, so a
  // request that was waiting for them cannot sign the session in again.
  private generation = 0;

  constructor(
    private readonly auth: Client<paths>,
    private readonly o: SessionOptions,
  ) {
    this.tokens = { token: o.token, refresh_token: o.refreshToken };
    this.login = o.login;
    this.now = o.now ?? Date.now;
  }

  get current(): Tokens {
    return { ...this.tokens };
  }

  get canRenew(): boolean {
    return this.tokens.refresh_token !== undefined || this.login !== undefined;
  }

  // Forgets the tokens, the credentials and the database chosen: later requests go without a token.
  signOut(): void {
    this.generation++;
    this.tokens = { token: undefined, refresh_token: undefined };
    this.login = undefined;
    this.database = undefined;
  }

  // The token for the next request: renewed first when missing or about to expire.
  async bearer(): Promise<Bearer> {
    const token = this.tokens.token;
    if (this.renewing) return this.renewing;
    if ((token === undefined || this.expiring(token)) && this.canRenew) return this.renew(token);
    return { token };
  }

  // A new token in place of `stale` (the one the server refused): a renewal that already replaced it
  // is not repeated.
  renew(stale: string | undefined, database?: DatabaseChoice): Promise<Bearer> {
    if (this.renewing) return this.renewing;
    if (database === undefined && this.tokens.token !== stale) return Promise.resolve({ token: this.tokens.token });
    const run = this.obtain(database).finally(() => {
      this.renewing = undefined;
    });
    this.renewing = run;
    return run;
  }

  async switchDatabase(database: DatabaseChoice): Promise<Bearer> {
    if (!this.canRenew) throw new Error('switchDatabase needs a refresh token or credentials');
    // Waits for renewals under way: their refresh token is the one to use.
    while (this.renewing) await this.renewing;
    const got = await this.renew(this.tokens.token, database);
    if ('token' in got) this.database = database;
    return got;
  }

  private expiring(token: string): boolean {
    const life = lifetimeOf(token);
    if (!life) return false;
    const margin = Math.min(this.o.refreshBeforeSeconds ?? REFRESH_BEFORE_SECONDS, (life.expiresAt - life.issuedAt) / 2);
    return this.now() >= (life.expiresAt - margin) * 1000;
  }

  private async obtain(database: DatabaseChoice | undefined): Promise<Bearer> {
    const generation = this.generation;
    const refreshToken = this.tokens.refresh_token;
    if (refreshToken !== undefined) {
      const r = await this.auth.POST('/login/refresh-token/', { body: { refresh_token: refreshToken, ...database } });
      if (r.data) return this.keep(r.data, generation);
      // A used, unknown or expired refresh token: credentials, when given, open a new session.
      const refused = r.error?.error_name === 'RefreshTokenExpired' || r.error?.error_data.name === 'INCORRECT_REFRESH_TOKEN';
      if (!(refused && this.login)) return failed(r.response, r.error);
    }
    if (!this.login) return { token: this.tokens.token };
    return this.logIn(this.login, database ?? this.database, generation);
  }

  private async logIn(login: Login, database: DatabaseChoice | undefined, generation: number): Promise<Bearer> {
    const r =
      'root' in login
        ? await this.auth.POST('/login/root/', { body: login.root })
        : 'individual' in login
          ? await this.auth.POST('/login/individual/', { body: { ...login.individual, ...chosen(database) } })
          : await this.auth.POST('/login/service/', { body: { ...login.service, ...chosen(database) } });
    if (!r.data) return failed(r.response, r.error);
    const got = this.keep(r.data, generation);
    // Root logs in without a database; it reaches one through a refresh naming it.
    if ('root' in login && database !== undefined) {
      const s = await this.auth.POST('/login/refresh-token/', { body: { refresh_token: r.data.refresh_token, ...database } });
      return s.data ? this.keep(s.data, generation) : failed(s.response, s.error);
    }
    return got;
  }

  private keep(answer: LoginAnswer, generation: number): Bearer {
    if (generation !== this.generation) return { token: undefined };
    this.tokens = { token: answer.token, refresh_token: answer.refresh_token };
    this.o.onTokens?.(answer);
    return { token: answer.token };
  }
}

// The database a login names: the one chosen since, in place of the credentials' own (undefined
// fields are left out of the JSON body).
function chosen(database: DatabaseChoice | undefined): DatabaseChoice {
  return database === undefined ? {} : { db_id: database.db_id, db_name: database.db_name };
}

// The refused login or refresh, as the answer of the request that needed it: the caller reads the
// API's error body (the original answer's body was read already).
function failed(response: Response, error: ErrorBody | string | undefined): Bearer {
  const body = error === undefined ? null : typeof error === 'string' ? error : JSON.stringify(error);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return { failed: () => new Response(body, { status: response.status, headers }) };
}
