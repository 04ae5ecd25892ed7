// The dashboard's session with the API: @recd/client (typed by the OpenAPI document; it renews the
// token before it expires and once more when the API says it has), signed in with the form's
// credentials. The JWT lives in that client's memory only, never in storage, where any script of the
// origin could read it. The client is bundled from its sources, which its own tests run too.
import { createRecdClient, type ErrorBody, type LoginAnswer, type RecdClient } from '../../packages/client/src/index.js';

// An error answer of the API, as the spec shapes it (error_name, error_code, error_data.name, message).
export class ApiFailure extends Error {
  constructor(
    readonly errorName: string,
    readonly cause_: string | undefined,
    message: string,
  ) {
    super(message);
  }

  static of(body: ErrorBody): ApiFailure {
    return new ApiFailure(body.error_name, body.error_data.name, body.message);
  }

  // What a person reads: the API's message and its precise cause.
  get text(): string {
    return `${this.errorName}${this.cause_ ? ` (${this.cause_})` : ''}: ${this.message}`;
  }
}

// What the UI shows of the session: the role decides the pages, the database what they read.
export interface Session {
  role: LoginAnswer['role'];
  orgId: string;
  who: string; // email or service name
  database?: LoginAnswer['database'];
}

export interface SignedIn {
  client: RecdClient;
  session: Session;
}

export interface Credentials {
  kind: 'individual' | 'service';
  login: string; // email, or a service account's name
  password: string; // password, or a service key
  dbName?: string;
}

// An answer's body, or its error as an ApiFailure (what useLoad and useAction show). An error answer
// without a JSON body (openapi-fetch gives its text, or nothing) is named by its status.
export async function ok<T>(call: Promise<{ data?: T; error?: ErrorBody | string; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  if (typeof error === 'object') throw ApiFailure.of(error);
  throw new ApiFailure(`HTTP ${response.status}`, undefined, error || response.statusText);
}

// Logs in (no token needed, so through a client without one), then hands the tokens to the session's
// client; the password is not kept. onChange hears each later change of the session: a renewal, or
// another database.
export async function signIn(c: Credentials, onChange: (s: Session) => void): Promise<SignedIn> {
  const baseUrl = `${location.origin}/v1`;
  const db = c.dbName ? { db_name: c.dbName } : {};
  const anonymous = createRecdClient({ baseUrl });
  const answer = await ok(
    c.kind === 'individual'
      ? anonymous.POST('/login/individual/', { body: { email: c.login, password: c.password, ...db } })
      : anonymous.POST('/login/service/', { body: { name: c.login, password: c.password, ...db } }),
  );
  const sessionOf = (a: LoginAnswer): Session => ({
    role: a.role,
    orgId: a.org_id,
    who: c.login,
    ...(a.database ? { database: a.database } : {}),
  });
  const client = createRecdClient({
    baseUrl,
    token: answer.token,
    refreshToken: answer.refresh_token,
    onTokens: (a) => onChange(sessionOf(a)),
  });
  return { client, session: sessionOf(answer) };
}

// A token bound to another database of the organisation (root and manager switch databases); the
// new session reaches the UI through onChange.
export async function openDatabase(client: RecdClient, dbId: string): Promise<void> {
  const { error } = await client.switchDatabase({ db_id: dbId });
  if (error) throw ApiFailure.of(error);
}

export const errorText = (err: unknown): string =>
  err instanceof ApiFailure ? err.text : err instanceof Error ? err.message : String(err);
