// Organisations, accounts, service keys and password codes.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export interface Org {
  id: string;
  name: string;
  created: number;
  metadata?: Record<string, unknown>; // organizations/current/ (absent on organisations made before it)
}

interface AccountBase {
  id: string;
  org: string;
  role: 'root' | 'manager' | 'backend' | 'frontend' | 'demo_viewer';
  metadata: Record<string, unknown>;
  created: number;
}

export interface IndividualAccount extends AccountBase {
  kind: 'individual';
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null; // null until the set-password e-mail is used
  password_updated_timestamp: number | null;
  last_login_timestamp: number | null;
}

export interface ServiceAccount extends AccountBase {
  kind: 'service';
  name: string;
}

export type Account = IndividualAccount | ServiceAccount;

export interface ServiceKey {
  id: string;
  account: string;
  hash: string;
  created_timestamp: number;
  expiration_timestamp: number | null;
  metadata: Record<string, unknown>;
}

export interface PasswordCode {
  hash: string;
  expiration_timestamp: number;
}

export interface AccountRef {
  org: string;
  id: string;
}

const ref = (r: AccountRef) => `${r.org}:${r.id}`;
const parseRef = (s: string | null): AccountRef | undefined => {
  if (!s) return undefined;
  const i = s.indexOf(':');
  return { org: s.slice(0, i), id: s.slice(i + 1) };
};

export class AccountsStore {
  constructor(private readonly redis: Connection) {}

  async anyOrg(): Promise<boolean> {
    return (await this.redis.scard(keys.orgs())) > 0;
  }

  // The record, then the id in the global set: two commands, not one transaction, as they are in two
  // slots of a cluster. The record is the truth; the set only answers "is there any organisation" at
  // start-up (anyOrg, whether to create the configured root). A crash between the two leaves an
  // organisation the set lacks until its next putOrg; a start-up meanwhile tries to create the root,
  // which claims the root's e-mail first and so does nothing when that root exists.
  async putOrg(org: Org): Promise<void> {
    await this.redis.set(keys.org(org.id), pack(org));
    await this.redis.sadd(keys.orgs(), org.id);
  }

  async getOrg(id: string): Promise<Org | undefined> {
    return unpack<Org>(await this.redis.getBuffer(keys.org(id)));
  }

  // Claims a unique login name (e-mail or service name); false when somebody holds it.
  async claimEmail(email: string, r: AccountRef): Promise<boolean> {
    return (await this.redis.hsetnx(keys.emailIndex(), email.toLowerCase(), ref(r))) === 1;
  }

  async releaseEmail(email: string): Promise<void> {
    await this.redis.hdel(keys.emailIndex(), email.toLowerCase());
  }

  async claimServiceName(name: string, r: AccountRef): Promise<boolean> {
    return (await this.redis.hsetnx(keys.serviceNameIndex(), name, ref(r))) === 1;
  }

  async releaseServiceName(name: string): Promise<void> {
    await this.redis.hdel(keys.serviceNameIndex(), name);
  }

  async findByEmail(email: string): Promise<IndividualAccount | undefined> {
    const r = parseRef(await this.redis.hget(keys.emailIndex(), email.toLowerCase()));
    const acc = r && (await this.get(r.org, r.id));
    return acc?.kind === 'individual' ? acc : undefined;
  }

  async findByServiceName(name: string): Promise<ServiceAccount | undefined> {
    const r = parseRef(await this.redis.hget(keys.serviceNameIndex(), name));
    const acc = r && (await this.get(r.org, r.id));
    return acc?.kind === 'service' ? acc : undefined;
  }

  async put(acc: Account): Promise<void> {
    await this.redis.hset(keys.accounts(acc.org), acc.id, pack(acc));
  }

  async get(org: string, id: string): Promise<Account | undefined> {
    return unpack<Account>(await this.redis.hgetBuffer(keys.accounts(org), id));
  }

  async list(org: string): Promise<Account[]> {
    const all = await this.redis.hgetallBuffer(keys.accounts(org));
    return Object.values(all)
      .map((b) => unpack<Account>(b)!)
      .sort((a, b) => a.created - b.created);
  }

  // Removes the account, its keys and codes, then frees its login name.
  async remove(acc: Account): Promise<void> {
    const keyIds = (await this.listKeys(acc.org)).filter((k) => k.account === acc.id).map((k) => k.id);
    const tx = this.redis.multi().hdel(keys.accounts(acc.org), acc.id).hdel(keys.passwordCodes(acc.org), acc.id);
    if (keyIds.length > 0) tx.hdel(keys.serviceKeys(acc.org), ...keyIds);
    await tx.exec();
    if (acc.kind === 'individual') await this.releaseEmail(acc.email);
    else await this.releaseServiceName(acc.name);
  }

  async putKey(org: string, key: ServiceKey): Promise<void> {
    await this.redis.hset(keys.serviceKeys(org), key.id, pack(key));
  }

  async listKeys(org: string): Promise<ServiceKey[]> {
    const all = await this.redis.hgetallBuffer(keys.serviceKeys(org));
    return Object.values(all)
      .map((b) => unpack<ServiceKey>(b)!)
      .sort((a, b) => a.created_timestamp - b.created_timestamp);
  }

  async getKey(org: string, keyId: string): Promise<ServiceKey | undefined> {
    return unpack<ServiceKey>(await this.redis.hgetBuffer(keys.serviceKeys(org), keyId));
  }

  async removeKey(org: string, keyId: string): Promise<boolean> {
    return (await this.redis.hdel(keys.serviceKeys(org), keyId)) === 1;
  }

  async putCode(org: string, accountId: string, code: PasswordCode): Promise<void> {
    await this.redis.hset(keys.passwordCodes(org), accountId, pack(code));
  }

  async getCode(org: string, accountId: string): Promise<PasswordCode | undefined> {
    return unpack<PasswordCode>(await this.redis.hgetBuffer(keys.passwordCodes(org), accountId));
  }

  async removeCode(org: string, accountId: string): Promise<void> {
    await this.redis.hdel(keys.passwordCodes(org), accountId);
  }
}
