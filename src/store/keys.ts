// Every Redis key recd uses, with its type. Keys of one organisation share the hash tag {org:<id>},
// keys of one database share {db:<id>}, so each lives in one cluster slot.
export const keys = {
  // SET of organisation ids.
  orgs: () => 'orgs',
  // STRING msgpack Org.
  org: (org: string) => `{org:${org}}:meta`,
  // HASH account id -> msgpack Account (individual and service accounts of the organisation).
  accounts: (org: string) => `{org:${org}}:accounts`,
  // HASH key id -> msgpack ServiceKey (secrets stored as scrypt hashes only).
  serviceKeys: (org: string) => `{org:${org}}:service-keys`,
  // HASH account id -> msgpack PasswordCode (set-password and reset codes, hashed).
  passwordCodes: (org: string) => `{org:${org}}:password-codes`,
  // ZSET database id scored by creation sequence: the listing order of GET databases/.
  orgDatabases: (org: string) => `{org:${org}}:databases`,
  // STRING counter giving each new database of the organisation its sequence number.
  orgDatabaseSeq: (org: string) => `{org:${org}}:database-seq`,
  // HASH lower-cased database name -> database id.
  orgDatabaseNames: (org: string) => `{org:${org}}:database-names`,
  // HASH lower-cased e-mail -> "<org>:<account>" (e-mails are unique across organisations).
  emailIndex: () => 'index:emails',
  // HASH service account name -> "<org>:<account>" (names are unique across organisations).
  serviceNameIndex: () => 'index:service-names',
  // STRING msgpack RefreshRecord with a TTL; the name holds the SHA-256 of the random token.
  refreshToken: (digest: string) => `refresh:${digest}`,
  // ZSET revoked account or service-key id, scored by the time (ms) until which tokens issued to it could live.
  revokedAccounts: () => 'revoked-accounts',
  // Pub/sub channel: an account or service-key id whose tokens must stop working now.
  revokedChannel: () => 'recd:revoked-accounts',
  // STRING the generated JWT secret, when RECD_JWT_SECRET is not set.
  jwtSecret: () => 'settings:jwt-secret',
  // LIST msgpack OutboxMail, newest first, capped: mail when no SMTP server is configured.
  outbox: () => 'mail:outbox',
  // STRING counter of an organisation's requests in one one-second window; expires soon after.
  rateWindow: (org: string, window: number) => `{org:${org}}:rate:${window}`,
  // STRING msgpack Database.
  database: (db: string) => `{db:${db}}:meta`,
  // Pattern of every key of a database (deletion scans it).
  databasePattern: (db: string) => `{db:${db}}:*`,
  // HASH lower-cased property name -> msgpack PropertyDef, for item or user properties.
  properties: (db: string, kind: 'item' | 'user') => `{db:${db}}:properties:${kind}`,
  // ZSET lower-cased property name scored by creation sequence: the listing order.
  propertyOrder: (db: string, kind: 'item' | 'user') => `{db:${db}}:properties:${kind}:order`,
  // STRING counter giving each new property definition its sequence number (order and storage field).
  propertySeq: (db: string) => `{db:${db}}:properties:seq`,
  // HASH canonical item/user id -> dense index (decimal). Indices never change or get reused.
  entityIndex: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}s:index`,
  // STRING counter handing out the next dense index.
  entityNext: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}s:next`,
  // HASH of one item/user's property values: '@id' -> canonical id, property storage field
  // (PropertyDef.field) -> msgpack value. Exists from the entity's first write until it is deleted;
  // the index entry outlives it.
  entityRecordPrefix: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}:`,
  // STREAM of catalogue writes (kind, op, idx, id), trimmed: what per-process views tail.
  catalogueChanges: (db: string) => `{db:${db}}:catalogue:changes`,
  // ZSET task id scored by start time (ms), per task name.
  tasksByName: (db: string, name: string) => `{db:${db}}:tasks:${name}`,
  // STRING msgpack TaskRecord.
  task: (db: string, id: string) => `{db:${db}}:task:${id}`,
} as const;
