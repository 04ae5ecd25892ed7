// Logins: root, individual, service, refresh token, and the token self-description (login/jwt).
import { authError, forbidden, notFound, wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import type { Account, ServiceKey } from '../../store/accounts-store.js';
import type { Database } from '../../store/databases-store.js';
import type { RefreshRecord } from '../../store/tokens-store.js';
import type { AccountService } from './accounts.js';
import { isExpired, publicIndividual } from './account-views.js';
import { loginDatabase, type DatabaseService } from '../databases/databases.js';
import { idType } from '../ids/id-types.js';
import { accountKey, type LoginThrottle } from './login-throttle.js';
import type { TokenService } from './tokens.js';

export interface DbChoice {
  db_id?: string;
  db_name?: string;
}

export interface FrontendIds {
  frontend_user_id?: string | number;
  frontend_session_id?: string | number;
}

export class LoginService {
  private readonly jwtAnswers = new WeakMap<Claims, Record<string, unknown>>();

  constructor(
    private readonly accounts: AccountService,
    private readonly databases: DatabaseService,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
    // A frontend login naming both a user and a session resolves the session to the user.
    private readonly resolveSession: (
      db: string,
      session: string,
      user: string,
    ) => Promise<'resolved' | 'already-same' | 'already-other'> = async () => 'resolved',
  ) {}

  // address: the client's, for throttling failed logins (login-throttle.ts).
  async root(email: string, password: string, address: string) {
    const acc = await this.throttle.guard(accountKey('individual', email), address, () => this.accounts.checkIndividual(email, password));
    if (acc.role !== 'root') throw authError('INCORRECT_PASSWORD', 'this is not a root account: use POST login/individual/');
    const previous = await this.accounts.recordLogin(acc);
    return this.respond(acc, undefined, {}, previous);
  }

  async individual(input: { email: string; password: string } & DbChoice & FrontendIds, address: string) {
    const acc = await this.throttle.guard(accountKey('individual', input.email), address, () =>
      this.accounts.checkIndividual(input.email, input.password),
    );
    const db = await this.chooseDb(acc.org, input);
    const previous = await this.accounts.recordLogin(acc);
    return this.respond(acc, db, input, previous);
  }

  async service(input: { name: string; password: string } & DbChoice & FrontendIds, address: string) {
    const { account, key } = await this.throttle.guard(accountKey('service', input.name), address, () =>
      this.accounts.checkService(input.name, input.password),
    );
    if (isExpired(key)) throw authError('INCORRECT_PASSWORD', 'this service key has expired');
    const db = await this.chooseDb(account.org, input);
    return this.respond(account, db, input, null, key);
  }

  // POST accounts/individual/send-reset-password-email/: each request mails (or pretends to), so each
  // counts against the e-mail's and the address's budgets, or anyone could flood a mailbox.
  async sendResetEmail(email: string, redirectUrl: string, address: string): Promise<void> {
    await this.throttle.spend('reset-mail', accountKey('individual', email), address);
    await this.accounts.sendResetEmail(email, redirectUrl);
  }

  async refresh(input: { refresh_token: string } & DbChoice) {
    const { acc, rec, db, key } = await this.tokens.useRefresh(input.refresh_token, async (rec) => {
      const acc = await this.accounts.get(rec.org, rec.account);
      if (!acc) throw notFound('ACCOUNT_NOT_FOUND', 'account', rec.account, 'the account of this refresh token no longer exists');
      // A new password, or a deleted or expired service key, ends the sessions opened before.
      if (acc.kind === 'individual' && (acc.password_updated_timestamp ?? 0) > rec.issued) {
        throw authError('INCORRECT_REFRESH_TOKEN', 'the password changed since this session began: log in again');
      }
      const key = rec.key === null ? undefined : await this.accounts.usableKey(acc.org, rec.key);
      if (rec.key !== null && key === undefined) {
        throw authError('INCORRECT_REFRESH_TOKEN', 'the service key of this session was deleted or expired: log in again');
      }
      const switching = input.db_id !== undefined || input.db_name !== undefined;
      const db = switching ? await this.chooseDb(acc.org, input) : rec.db === null ? undefined : await this.databases.get(acc.org, rec.db);
      // A frontend session stays on its database, with its binding: a refresh never widens a token
      // (switching would drop the binding, and coming back unbound would reach every user's data;
      // and a browser's token reaches no other database).
      if (acc.role === 'frontend' && rec.db !== null && db?.id !== rec.db) throw frontendStays(rec);
      return { acc, rec, db, key };
    });
    const ids = { frontend_user_id: rec.fuid ?? undefined, frontend_session_id: rec.fsid ?? undefined };
    const previous = acc.kind === 'individual' ? acc.last_login_timestamp : null;
    return this.respond(acc, db, ids, previous, key);
  }

  // Answers from the token alone: no storage round trip. Memoised per verified token (the claims
  // object is cached with it), frozen so its encoding is reused too.
  jwt(claims: Claims) {
    let answer = this.jwtAnswers.get(claims);
    if (answer === undefined) this.jwtAnswers.set(claims, (answer = deepFreeze(this.describe(claims))));
    return answer;
  }

  private describe(claims: Claims): Record<string, unknown> {
    const out: Record<string, unknown> = { org_id: claims.org, account: { id: claims.sub, role: claims.role }, warnings: [] };
    if (claims.db !== undefined) {
      const [item, user, session] = claims.dbt ?? ['', '', ''];
      out.database = {
        id: claims.db,
        item_id_type: item,
        user_id_type: user,
        session_id_type: session,
        frontend_user_id: claims.fuid ?? null,
        frontend_session_id: claims.fsid ?? null,
      };
    }
    if (claims.fuid !== undefined) out.frontend_user_id = claims.fuid;
    return out;
  }

  private async chooseDb(org: string, choice: DbChoice): Promise<Database | undefined> {
    if (choice.db_id !== undefined) {
      const db = await this.databases.get(org, choice.db_id);
      if (choice.db_name !== undefined && choice.db_name.toLowerCase() !== db.name.toLowerCase()) {
        throw wrongData('WRONG_PARAMETER', 'db_id and db_name name different databases');
      }
      return db;
    }
    if (choice.db_name !== undefined) return this.databases.byName(org, choice.db_name);
    return undefined;
  }

  // key: the service key of a service session, whose expiry also ends the access token.
  private async respond(acc: Account, db: Database | undefined, ids: FrontendIds, previousLogin: number | null, key?: ServiceKey) {
    const warnings: string[] = [];
    const frontend = frontendIds(acc, db, ids, warnings);
    if (
      db
      && frontend.fuid !== undefined
      && frontend.fsid !== undefined
      && (await this.resolveSession(db.id, frontend.fsid, frontend.fuid)) === 'already-other'
    ) {
      warnings.push(`frontend_session_id ${JSON.stringify(frontend.fsid)} was already resolved to another user; the link is unchanged`);
    }
    const token = this.tokens.sign(
      {
        sub: acc.id,
        org: acc.org,
        role: acc.role,
        kind: acc.kind,
        ...(db ? { db: db.id, dbt: [db.item_id_type, db.user_id_type, db.session_id_type] as [string, string, string] } : {}),
        ...(frontend.fuid !== undefined ? { fuid: frontend.fuid } : {}),
        ...(frontend.fsid !== undefined ? { fsid: frontend.fsid } : {}),
        ...(key !== undefined ? { key: key.id } : {}),
        ...(acc.kind === 'individual' && acc.password_updated_timestamp !== null ? { pv: acc.password_updated_timestamp } : {}),
      },
      key?.expiration_timestamp ?? null,
    );
    const refresh_token = await this.tokens.issueRefresh({
      org: acc.org,
      account: acc.id,
      key: key?.id ?? null,
      db: db?.id ?? null,
      fuid: frontend.fuid ?? null,
      fsid: frontend.fsid ?? null,
    });
    const account =
      acc.kind === 'individual'
        ? {
            ...publicIndividual(acc),
            metadata: {
              ...acc.metadata,
              previous_login_timestamp: previousLogin,
              password_updated_timestamp: acc.password_updated_timestamp,
            },
          }
        : { name: acc.name, role: acc.role, metadata: acc.metadata };
    const out: Record<string, unknown> = { org_id: acc.org, token, role: acc.role, refresh_token, account, warnings };
    if (db) out.database = loginDatabase(db);
    if (frontend.fuid !== undefined) out.frontend_user_id = frontend.fuid;
    if (frontend.fsid !== undefined) out.frontend_session_id = frontend.fsid;
    return out;
  }
}

function frontendStays(rec: RefreshRecord) {
  const message = 'a frontend session cannot switch database: log in to the other one';
  if (rec.fuid !== null)
    return forbidden('INCORRECT_FRONTEND_USER_ID', `${message} (this one is bound to a frontend_user_id of its database)`);
  if (rec.fsid !== null)
    return forbidden('INCORRECT_FRONTEND_SESSION_ID', `${message} (this one is bound to a frontend_session_id of its database)`);
  return forbidden('INCORRECT_ROLE', message);
}

function deepFreeze<T extends object>(value: T): T {
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(value);
}

// Frontend identifiers belong to frontend accounts bound to a database, and must fit its ID types.
function frontendIds(acc: Account, db: Database | undefined, ids: FrontendIds, warnings: string[]): { fuid?: string; fsid?: string } {
  const given = ids.frontend_user_id !== undefined || ids.frontend_session_id !== undefined;
  if (!given) return {};
  if (acc.role !== 'frontend' || !db) {
    warnings.push('frontend_user_id and frontend_session_id are ignored: they apply to frontend accounts logging in to a database');
    return {};
  }
  const out: { fuid?: string; fsid?: string } = {};
  if (ids.frontend_user_id !== undefined) {
    const v = idType(db.user_id_type)!.parse(ids.frontend_user_id);
    if (v === undefined)
      throw wrongData('INCORRECT_USER_ID_TYPE', `frontend_user_id is not of type ${db.user_id_type}`, { field: 'frontend_user_id' });
    out.fuid = String(v);
  }
  if (ids.frontend_session_id !== undefined) {
    const v = idType(db.session_id_type)!.parse(ids.frontend_session_id);
    if (v === undefined) {
      throw wrongData('INCORRECT_SESSION_ID_TYPE', `frontend_session_id is not of type ${db.session_id_type}`, {
        field: 'frontend_session_id',
      });
    }
    out.fsid = String(v);
  }
  return out;
}
