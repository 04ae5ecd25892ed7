// Accounts of an organisation: individual and service accounts, service keys, password codes.
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../config/limits.js';
import { authError, duplicated, forbidden, notFound, wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import type { CreatableRole, IndividualInput, IndividualPatch } from './account-inputs.js';
import type { Account, AccountsStore, IndividualAccount, ServiceAccount, ServiceKey } from '../../store/accounts-store.js';
import type { Mailer } from './mailer.js';
import { mergePatch } from '../merge-patch.js';
import { checkIndividualPassword, checkServicePassword } from './password-rules.js';
import { hashSecret, randomSecret, verifySecret } from './secrets.js';
import type { TokenService } from './tokens.js';
import { isExpired, publicIndividual, publicKey } from './account-views.js';
import { codeMailText } from './code-mail.js';
import { checkEmail, checkRedirectUrl, checkServiceName, dummyHash, incorrectPassword } from './account-checks.js';

const now = () => Date.now() / 1000;

export class AccountService {
  constructor(
    private readonly store: AccountsStore,
    private readonly tokens: TokenService,
    private readonly mailer: Mailer,
    private readonly codeTtlSeconds: number,
  ) {}

  async orgMetadata(org: string): Promise<Record<string, unknown>> {
    return (await this.store.getOrg(org))?.metadata ?? {};
  }

  // The organisation's metadata before and after a deep merge (merge-patch.ts); stored unless a preview.
  // Read, merge, write: of two PATCHes at the same moment the later write wins whole.
  async patchOrgMetadata(org: string, patch: Record<string, unknown>, preserve: boolean, store: boolean) {
    const o = await this.store.getOrg(org);
    if (!o) throw notFound('ORGANIZATION_NOT_FOUND', 'organization', org);
    const before = o.metadata ?? {};
    const after = mergePatch(before, patch, preserve) as Record<string, unknown>;
    if (store) await this.store.putOrg({ ...o, metadata: after });
    return { metadata_old: before, metadata_new: after };
  }

  // Root account and its organisation; false when the e-mail is already taken.
  async createRoot(email: string, password: string): Promise<boolean> {
    checkIndividualPassword(password);
    const org = randomUUID();
    const id = randomUUID();
    if (!(await this.store.claimEmail(email, { org, id }))) return false;
    await this.store.putOrg({ id: org, name: email, created: now() });
    await this.store.put({
      kind: 'individual',
      id,
      org,
      role: 'root',
      email,
      first_name: '',
      last_name: '',
      metadata: {},
      created: now(),
      password_hash: await hashSecret(password),
      password_updated_timestamp: now(),
      last_login_timestamp: null,
    });
    return true;
  }

  // `recd create-root --reset`: a root account's new password, for an operator who lost the old one.
  // As with any password change, the tokens and refresh tokens issued before stop working.
  async resetRootPassword(email: string, password: string): Promise<void> {
    checkIndividualPassword(password);
    const acc = await this.store.findByEmail(email);
    if (!acc)
      throw notFound(
        'ACCOUNT_NOT_FOUND',
        'account',
        email,
        `there is no account ${JSON.stringify(email)}: run recd create-root without --reset to add it`,
      );
    if (acc.role !== 'root')
      throw forbidden('INCORRECT_ACCOUNT', `${email} is not a root account: its own organisation resets its password`);
    acc.password_hash = await hashSecret(password);
    acc.password_updated_timestamp = now();
    await this.store.put(acc);
    await this.tokens.revoke(acc.id, acc.password_updated_timestamp);
  }

  anyRoot(): Promise<boolean> {
    return this.store.anyOrg();
  }

  async createIndividual(org: string, input: IndividualInput): Promise<string> {
    checkEmail(input.email);
    if (input.password !== undefined) checkIndividualPassword(input.password);
    if (input.email_redirect_url !== undefined) checkRedirectUrl(input.email_redirect_url);
    const id = randomUUID();
    if (!(await this.store.claimEmail(input.email, { org, id }))) throw duplicated('DUPLICATED_ACCOUNT', 'account', input.email);
    const account: IndividualAccount = {
      kind: 'individual',
      id,
      org,
      role: input.role,
      email: input.email,
      first_name: input.first_name ?? '',
      last_name: input.last_name ?? '',
      metadata: input.metadata ?? {},
      created: now(),
      password_hash: input.password === undefined ? null : await hashSecret(input.password),
      password_updated_timestamp: input.password === undefined ? null : now(),
      last_login_timestamp: null,
    };
    await this.store.put(account);
    if (input.password === undefined) await this.mailCode(account, input.email_redirect_url, 'Set your recd password');
    return id;
  }

  async patchIndividual(caller: Claims, patch: IndividualPatch): Promise<void> {
    const acc = await this.individualInOrg(caller.org, patch.email);
    if (acc.role === 'root' && acc.id !== caller.sub)
      throw forbidden('INCORRECT_ACCOUNT', 'only the root account itself may change a root account');
    if (patch.password !== undefined) {
      checkIndividualPassword(patch.password);
      acc.password_hash = await hashSecret(patch.password);
      acc.password_updated_timestamp = now();
    }
    if (patch.first_name !== undefined) acc.first_name = patch.first_name;
    if (patch.last_name !== undefined) acc.last_name = patch.last_name;
    if (patch.metadata !== undefined) acc.metadata = patch.metadata;
    await this.store.put(acc);
    if (patch.password !== undefined) await this.tokens.revoke(acc.id, acc.password_updated_timestamp!);
  }

  async deleteIndividual(caller: Claims, email: string): Promise<void> {
    await this.remove(await this.individualInOrg(caller.org, email));
  }

  async createService(
    org: string,
    input: { name: string; role: CreatableRole; metadata?: Record<string, unknown>; password?: string },
  ): Promise<string> {
    checkServiceName(input.name);
    if (input.password !== undefined) checkServicePassword(input.password);
    const id = randomUUID();
    if (!(await this.store.claimServiceName(input.name, { org, id }))) throw duplicated('DUPLICATED_ACCOUNT', 'account', input.name);
    await this.store.put({ kind: 'service', id, org, role: input.role, name: input.name, metadata: input.metadata ?? {}, created: now() });
    // The deprecated service password becomes a key with that value.
    if (input.password !== undefined) await this.putKey(org, id, input.password, null, {});
    return id;
  }

  async deleteService(caller: Claims, name: string): Promise<void> {
    await this.remove(await this.serviceInOrg(caller.org, name));
  }

  async createKey(caller: Claims, name: string, expiration: number | undefined, metadata: Record<string, unknown> | undefined) {
    const acc = await this.serviceInOrg(caller.org, name);
    const warnings: string[] = [];
    const existing = (await this.store.listKeys(caller.org)).filter((k) => k.account === acc.id);
    if (existing.length >= LIMITS.serviceKeysPerAccountMax) {
      throw wrongData('WRONG_PARAMETER', `a service account holds at most ${LIMITS.serviceKeysPerAccountMax} keys: delete one first`);
    }
    if (expiration !== undefined && expiration <= now()) warnings.push('expiration_timestamp is in the past: the key is already expired');
    const secret = `rk_${randomSecret(32)}`;
    const key = await this.putKey(caller.org, acc.id, secret, expiration ?? null, metadata ?? {});
    return { ...publicKey(key), key: secret, warnings };
  }

  async deleteKey(caller: Claims, keyId: string): Promise<void> {
    if (!(await this.store.removeKey(caller.org, keyId)))
      throw notFound('ACCOUNT_NOT_FOUND', 'key', keyId, `service key ${keyId} not found`);
    await this.tokens.revoke(keyId);
  }

  // The key a session was opened with, while that session may go on (the key exists, unexpired).
  async usableKey(org: string, keyId: string): Promise<ServiceKey | undefined> {
    const key = await this.store.getKey(org, keyId);
    return key !== undefined && !isExpired(key) ? key : undefined;
  }

  async deleteSelf(caller: Claims): Promise<void> {
    const acc = await this.store.get(caller.org, caller.sub);
    if (!acc) throw notFound('ACCOUNT_NOT_FOUND', 'account', caller.sub);
    await this.remove(acc);
  }

  async list(org: string) {
    const [accounts, keys] = await Promise.all([this.store.list(org), this.store.listKeys(org)]);
    return {
      individual_accounts: accounts.filter((a): a is IndividualAccount => a.kind === 'individual').map(publicIndividual),
      service_accounts: accounts
        .filter((a): a is ServiceAccount => a.kind === 'service')
        .map((a) => ({ name: a.name, role: a.role, metadata: a.metadata, keys: keys.filter((k) => k.account === a.id).map(publicKey) })),
      warnings: [] as string[],
    };
  }

  // Same answer whether or not the e-mail exists, so the endpoint reveals no accounts.
  async sendResetEmail(email: string, redirectUrl: string): Promise<void> {
    checkRedirectUrl(redirectUrl);
    const acc = await this.store.findByEmail(email);
    if (acc) await this.mailCode(acc, redirectUrl, 'Reset your recd password');
    else await hashSecret(email); // as slow as the real thing, so timing reveals nothing
  }

  async resetPassword(email: string, code: string, newPassword: string): Promise<void> {
    const acc = await this.store.findByEmail(email);
    const stored = acc && (await this.store.getCode(acc.org, acc.id));
    if (!acc || !stored || !(await verifySecret(code, stored.hash)))
      throw authError('CODE_DOES_NOT_MATCH', 'this code does not match the e-mail');
    if (stored.expiration_timestamp <= now()) throw authError('CODE_EXPIRED', 'this code has expired: ask for a new one');
    checkIndividualPassword(newPassword);
    acc.password_hash = await hashSecret(newPassword);
    acc.password_updated_timestamp = now();
    await this.store.put(acc);
    await this.store.removeCode(acc.org, acc.id);
    await this.tokens.revoke(acc.id, acc.password_updated_timestamp);
  }

  // Login checks. Both answer INCORRECT_PASSWORD for unknown names too, as slowly, revealing nothing.
  async checkIndividual(email: string, password: string): Promise<IndividualAccount> {
    const acc = await this.store.findByEmail(email);
    if (!acc) {
      await verifySecret(password, await dummyHash());
      throw incorrectPassword();
    }
    if (acc.password_hash === null)
      throw authError('ACCOUNT_NOT_VERIFIED', 'this account has no password yet: use the link of the set-password e-mail');
    if (!(await verifySecret(password, acc.password_hash))) throw incorrectPassword();
    return acc;
  }

  async checkService(name: string, key: string): Promise<{ account: ServiceAccount; key: ServiceKey }> {
    const acc = await this.store.findByServiceName(name);
    const candidates = acc ? (await this.store.listKeys(acc.org)).filter((k) => k.account === acc.id) : [];
    for (const k of candidates) {
      // An expired key is refused by the login (login.ts), after throttling: it is no wrong guess.
      if (await verifySecret(key, k.hash)) return { account: acc!, key: k };
    }
    if (candidates.length === 0) await verifySecret(key, await dummyHash());
    throw incorrectPassword();
  }

  async recordLogin(acc: IndividualAccount): Promise<number | null> {
    const previous = acc.last_login_timestamp;
    acc.last_login_timestamp = now();
    await this.store.put(acc);
    return previous;
  }

  get(org: string, id: string): Promise<Account | undefined> {
    return this.store.get(org, id);
  }

  private async remove(acc: Account): Promise<void> {
    if (acc.role === 'root') throw forbidden('INCORRECT_ACCOUNT', 'a root account cannot be deleted');
    await this.store.remove(acc);
    await this.tokens.revoke(acc.id);
  }

  private async putKey(
    org: string,
    account: string,
    secret: string,
    expiration: number | null,
    metadata: Record<string, unknown>,
  ): Promise<ServiceKey> {
    const key: ServiceKey = {
      id: randomUUID(),
      account,
      hash: await hashSecret(secret),
      created_timestamp: now(),
      expiration_timestamp: expiration,
      metadata,
    };
    await this.store.putKey(org, key);
    return key;
  }

  // Without a redirect URL the mail carries the code itself, for POST accounts/individual/reset/.
  private async mailCode(acc: IndividualAccount, redirectUrl: string | undefined, subject: string): Promise<void> {
    const code = randomSecret(24);
    const expiration = now() + this.codeTtlSeconds;
    await this.store.putCode(acc.org, acc.id, { hash: await hashSecret(code), expiration_timestamp: expiration });
    const text = codeMailText(code, expiration, acc.email, redirectUrl);
    await this.mailer.send({ to: acc.email, subject, text });
  }

  private async individualInOrg(org: string, email: string): Promise<IndividualAccount> {
    const acc = await this.store.findByEmail(email);
    if (!acc || acc.org !== org) throw notFound('ACCOUNT_NOT_FOUND', 'account', email);
    return acc;
  }

  private async serviceInOrg(org: string, name: string): Promise<ServiceAccount> {
    const acc = await this.store.findByServiceName(name);
    if (!acc || acc.org !== org) throw notFound('ACCOUNT_NOT_FOUND', 'account', name);
    return acc;
  }
}
