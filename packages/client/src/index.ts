// @recd/client: a typed client for recd's HTTP API (openapi-fetch over the types generated from the
// OpenAPI document recd serves), which logs in, sends the bearer token and renews it.
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { PUBLIC_OPERATIONS } from './public-operations.js';
import { Session, type DatabaseChoice, type ErrorBody, type Login, type LoginAnswer, type Tokens } from './session.js';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export type { DatabaseChoice, ErrorBody, Login, LoginAnswer, Tokens } from './session.js';

export interface RecdClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  // The API's root, with its /v1: http://localhost:8000/v1.
  baseUrl: string;
  // An access token to start with, and the refresh token that renews it.
  token?: string;
  refreshToken?: string;
  // Credentials: the client logs in before its first request, and again when its refresh token is
  // refused (expired, or used elsewhere).
  login?: Login;
  // Renew a token this long before it expires (default 30 s; half the lifetime of shorter tokens).
  refreshBeforeSeconds?: number;
  // The client's clock in milliseconds (default Date.now). The server's clock decides expiry: a
  // token it finds expired earlier than this clock says answers 401 JwtTokenExpired, and the client
  // renews it and sends the request again, once.
  now?: () => number;
  // Every new pair of tokens, to keep the latest refresh token (each is good for one refresh).
  onTokens?: (answer: LoginAnswer) => void;
}

export interface RecdClient extends Client<paths> {
  // The tokens the client holds now.
  tokens(): Tokens;
  // Moves the session to another database (POST login/refresh-token/ naming it); the API's error
  // body when refused.
  switchDatabase(database: DatabaseChoice): Promise<{ error?: ErrorBody }>;
  // Ends the session on this side (the API keeps no session to end): the tokens and credentials are
  // forgotten, later requests go without a token, and a renewal under way keeps nothing and calls
  // no onTokens.
  signOut(): void;
}

export function createRecdClient(options: RecdClientOptions): RecdClient {
  const { token, refreshToken, login, refreshBeforeSeconds, now, onTokens, ...clientOptions } = options;
  // Logins and refreshes go out without the middleware: they need no token.
  const session = new Session(createClient<paths>(clientOptions), { token, refreshToken, login, refreshBeforeSeconds, now, onTokens });
  const client = createClient<paths>(clientOptions);
  client.use(bearer(session));
  return Object.assign(client, {
    tokens: () => session.current,
    async switchDatabase(database: DatabaseChoice) {
      const got = await session.switchDatabase(database);
      return 'failed' in got ? { error: (await got.failed().json()) as ErrorBody } : {};
    },
    signOut: () => session.signOut(),
  });
}

// Sends the session's token with every operation that needs one; an answer 401 JwtTokenExpired
// renews it and sends the request again, once. The request is copied before it leaves, since its
// body can be read only once: both are made from the body's bytes, since a clone would make the body a
// stream, whose content a browser's developer tools (and the tests that drive a browser) cannot see.
function bearer(session: Session): Middleware {
  const copies = new Map<string, { copy: Request; token: string | undefined }>();
  return {
    async onRequest({ request, schemaPath, id }) {
      if (PUBLIC_OPERATIONS.has(`${request.method} ${schemaPath}`)) return undefined;
      const got = await session.bearer();
      if ('failed' in got) return got.failed();
      if (got.token !== undefined) request.headers.set('authorization', `Bearer ${got.token}`);
      if (!session.canRenew) return request;
      const body = request.body === null ? null : await request.clone().arrayBuffer();
      const copy = () => (body === null ? request.clone() : new Request(request, { body }));
      copies.set(id, { copy: copy(), token: got.token });
      return body === null ? request : copy();
    },
    async onResponse({ response, id, options }) {
      const sent = copies.get(id);
      copies.delete(id);
      if (!sent || response.status !== 401) return undefined;
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as Partial<ErrorBody> | undefined;
      if (body?.error_name !== 'JwtTokenExpired') return undefined;
      const got = await session.renew(sent.token);
      if ('failed' in got) return got.failed();
      if (got.token === undefined || got.token === sent.token) return undefined;
      sent.copy.headers.set('authorization', `Bearer ${got.token}`);
      return options.fetch(sent.copy);
    },
    onError({ id }) {
      copies.delete(id);
      return undefined;
    },
  };
}
