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
  // ZSET revoked account or service-key id (all its tokens), or "<account id> <password version>"
  // (its tokens of older passwords), scored by the time (ms) until which such tokens could live.
  revokedAccounts: () => 'revoked-accounts',
  // Pub/sub channel: a revocation entry as in revoked-accounts, whose tokens must stop working now.
  revokedChannel: () => 'recd:revoked-accounts',
  // Pub/sub channel: the id of a database just deleted (processes drop what they hold about it).
  droppedDatabasesChannel: () => 'recd:dropped-databases',
  // STRING the generated JWT secret, when RECD_JWT_SECRET is not set.
  jwtSecret: () => 'settings:jwt-secret',
  // Pub/sub channel: a process stored a new JWT secret (Redis had none): every process reads it again.
  jwtSecretChannel: () => 'recd:jwt-secret',
  // LIST msgpack OutboxMail, newest first, capped: mail when no SMTP server is configured.
  outbox: () => 'mail:outbox',
  // STRING counter of an organisation's requests in one one-second window; expires soon after.
  rateWindow: (org: string, window: number) => `{org:${org}}:rate:${window}`,
  // STRING counter of login attempts (failures, and attempts still being checked) for one login name
  // (`account`: lower-cased e-mail or service name, prefixed e: or s:) or one client address, in one
  // throttling window; expires when the window ends.
  loginAttempts: (scope: 'account' | 'address', id: string) => `login-attempts:${scope}:${id}`,
  // HASH of an organisation's call counts for one series of a label and one UTC day: field = start
  // of a minute (epoch seconds), value = requests; expires CALL_COUNT_DAYS after its last write.
  callCounts: (org: string, label: string, key: string, day: number) => `{org:${org}}:cc:${label}:${day}:${encodeURIComponent(key)}`,
  // SET of the series keys a label has had for an organisation.
  callCountKeys: (org: string, label: string) => `{org:${org}}:cc:${label}`,
  // STRING msgpack Database.
  database: (db: string) => `{db:${db}}:meta`,
  // HASH of a database's scenarios: field `<reco_type>/<name>` = msgpack scenario record.
  scenarios: (db: string) => `{db:${db}}:scenarios`,
  // HASH reco_type = name of its default scenario.
  scenarioDefaults: (db: string) => `{db:${db}}:scenario-defaults`,
  // STRING counter bumped by every scenario change (optimistic writes; caches compare it).
  scenariosVersion: (db: string) => `{db:${db}}:scenarios-version`,
  // HASH A/B test id = msgpack {name, probability_a}.
  abTests: (db: string) => `{db:${db}}:ab-tests`,
  // ZSET database id scored by when its delete started (ms): deletes not yet seen through, finished by
  // whichever process sweeps them (a delete cut short by an outage would otherwise leave its keys).
  databasesDeleting: () => 'databases:deleting',
  // What every key of a database starts with. Deletion does not list keys by it (that is a scan of the
  // whole keyspace) but from the database's own records (database-keys.ts): a key added here must be
  // listed there too.
  databasePrefix: (db: string) => `{db:${db}}:`,
  // HASH lower-cased property name -> msgpack PropertyDef, for item or user properties.
  properties: (db: string, kind: 'item' | 'user') => `{db:${db}}:properties:${kind}`,
  // ZSET lower-cased property name scored by creation sequence: the listing order.
  propertyOrder: (db: string, kind: 'item' | 'user') => `{db:${db}}:properties:${kind}:order`,
  // STRING counter giving each new property definition its sequence number (order and storage field).
  propertySeq: (db: string) => `{db:${db}}:properties:seq`,
  // HASH canonical item/user id -> dense index (decimal). Indices never change or get reused.
  entityIndex: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}s:index`,
  // HASH dense index (decimal) -> canonical item/user id: every entity known, with or without values.
  entityIds: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}s:ids`,
  // The three keys that allocate dense indices, in the order the write scripts take them (lua.ts allocate).
  entityIndexing: (db: string, kind: 'item' | 'user') =>
    [keys.entityIndex(db, kind), keys.entityNext(db, kind), keys.entityIds(db, kind)] as const,
  // STRING counter handing out the next dense index.
  entityNext: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}s:next`,
  // HASH dense index (decimal) -> msgpack record of one item/user: its id and values by property
  // storage sequence (store/entity-record.ts). Present from the entity's first write until its
  // values are deleted; the index entry outlives it.
  entityRecords: (db: string, kind: 'item' | 'user') => `{db:${db}}:${kind}s:records`,
  // STREAM of catalogue changes (kind, op put|delete|defs, idx list), trimmed: what every
  // process tails to keep its property definitions and columnar views current.
  catalogueChanges: (db: string) => `{db:${db}}:catalogue:changes`,
  // One user's ratings (store/ratings-store.ts): <prefix><user index>:s, SET of the item indices rated;
  // <prefix><user index>:r, STRING of the explicit ones as records appended as written (the last per item
  // counts); <prefix><user index>:i, HASH item index -> value of the inferred ones. The prefix.
  userRatingsPrefix: (db: string) => `{db:${db}}:ratings:user:`,
  // STREAM of rating changes, for training to replay: each entry one request (op put|infer|delete|
  // delete-user, the user and item indices it names, packed records).
  ratingsLog: (db: string) => `{db:${db}}:ratings:log`,
  // STRING how many (user, item) ratings the database holds.
  ratingsCount: (db: string) => `{db:${db}}:ratings:count`,
  // STRING the next rating count that triggers a retrain (500 · 2^k); absent: 500.
  ratingsNextThreshold: (db: string) => `{db:${db}}:ratings:next-threshold`,
  // STRING msgpack InteractionRules (settings-store.ts): the database's interaction type -> inferred rating rules.
  interactionRules: (db: string) => `{db:${db}}:interaction-rules`,
  // HASH chunk sequence number -> LuaFrame chunk of interaction rows (store/interactions-store.ts),
  // of users or of sessions, in the order received.
  interactionChunks: (db: string, kind: 'user' | 'session') => `{db:${db}}:interactions:${kind}s:chunks`,
  // STRING the last chunk sequence number handed out.
  interactionChunkSeq: (db: string, kind: 'user' | 'session') => `{db:${db}}:interactions:${kind}s:chunk-seq`,
  // LIST "<chunk> <row>" references to one user's or session's interactions, in order: the prefix.
  interactionRefsPrefix: (db: string, kind: 'user' | 'session') => `{db:${db}}:interactions:${kind}-refs:`,
  // HASH the database's interaction counts, kept by the scripts that store and forget interactions:
  // `rows:<user|session>` interactions stored, `owners:<user|session>` users or sessions holding any.
  interactionCounts: (db: string) => `{db:${db}}:interactions:counts`,
  // STRING '1' with a TTL (RECD_IDEMPOTENCY_TTL_SECONDS): an interaction write sent with this
  // Idempotency-Key header value was applied (set by the script that applied it).
  idempotencyKey: (db: string, key: string) => `{db:${db}}:idempotency:${key}`,
  // ZSET the names of those keys scored by when they expire (ms), written and trimmed of expired ones
  // by the same script: how deleting the database finds them.
  idempotencyKeys: (db: string) => `{db:${db}}:idempotency-keys`,
  // HASH session id -> "<timestamp> <user id>": sessions resolved to a user.
  resolvedSessions: (db: string) => `{db:${db}}:sessions:resolved`,
  // ZSET session id scored by resolution order: the listing order of resolved-sessions/.
  resolvedOrder: (db: string) => `{db:${db}}:sessions:resolved:order`,
  // STRING counter giving resolutions their order.
  resolvedSeq: (db: string) => `{db:${db}}:sessions:resolved:seq`,
  // SET session ids resolved to one user: the prefix (then the user id).
  userSessionsPrefix: (db: string) => `{db:${db}}:sessions:user:`,
  // ZSET task id scored by start time (ms), per task name.
  tasksByName: (db: string, name: string) => `{db:${db}}:tasks:${name}`,
  // STRING msgpack TaskRecord.
  task: (db: string, id: string) => `{db:${db}}:task:${id}`,
  // STRING the id of the task record of that name waiting in the training queue (at most one).
  queuedTask: (db: string, name: string) => `{db:${db}}:tasks:${name}:queued`,
  // STRING "1" while an explicit request (POST tasks/<name>/) waits in the queue: a run of that name in
  // progress ends early what it may cut short (its users' lists), so the waiting run starts sooner.
  // Removed by the run that takes the queued record.
  taskHurry: (db: string, name: string) => `{db:${db}}:tasks:${name}:hurry`,
  // STRING how many runs of that task failed in a row (drives the retry backoff).
  taskFailures: (db: string, name: string) => `{db:${db}}:tasks:${name}:failures`,
  // STRING "<process token> <task name>" with a TTL, renewed: the database's one trainer.
  trainerLock: (db: string) => `{db:${db}}:trainer`,
  // STRING "<process token> <task name> <task id>" of the run in progress, written under the trainer
  // lock and removed when the run settles: one found by the next holder of the lock is a run whose
  // process died (or stalled past the lock's TTL), to be recorded FAILED and retried.
  trainingRun: (db: string) => `{db:${db}}:training:run`,
  // ZSET "<task name> <database id>" scored by the time (ms) before which it must not run.
  trainingQueue: () => 'training:queue',
  // ZSET database id scored by the time (ms) of its oldest feedback no model has seen yet.
  unmodelledFeedback: () => 'training:unmodelled-feedback',
  // Databases by the time (ms) their last feedback write was noted (training waits for writes to settle).
  lastFeedback: () => 'training:last-feedback',
  // STRING the compacted ratings (engine/ratings-replay.ts) as one value (snapshots before 2026-11-26),
  // and the ratings log entry the snapshot covers.
  ratingsSnapshot: (db: string) => `{db:${db}}:ratings:snapshot`,
  ratingsSnapshotId: (db: string) => `{db:${db}}:ratings:snapshot-id`,
  // STRING "<generation> <parts> <bytes>": the snapshot is stored in parts (blob-parts.ts) named by a
  // generation, so a new one is written whole before it replaces the old.
  ratingsSnapshotParts: (db: string) => `{db:${db}}:ratings:snapshot-parts`,
  ratingsSnapshotPart: (db: string, generation: string, k: number) => `{db:${db}}:ratings:snapshot:${generation}:${k}`,
  // HASH generation -> parts, of every snapshot generation whose parts may be stored: written before
  // its parts, removed once they are (what finds the parts of a compaction cut short).
  ratingsSnapshotGenerations: (db: string) => `{db:${db}}:ratings:snapshot-generations`,
  // HASH model id -> msgpack ModelMeta; ZSET model id by publication time (ms).
  models: (db: string) => `{db:${db}}:models`,
  modelOrder: (db: string) => `{db:${db}}:models:order`,
  // STRING the id of the model the database serves.
  currentModel: (db: string) => `{db:${db}}:models:current`,
  // STRING one model's buffer (engine/model/layout.ts), for the last few models only.
  modelBlob: (db: string, id: string) => `{db:${db}}:models:blob:${id}`,
  // STRING part k ≥ 1 of a model's buffer stored in several (models-store.ts PART_BYTES).
  modelPart: (db: string, id: string, k: number) => `{db:${db}}:models:blob:${id}:${k}`,
  // HASH model id -> parts, of models whose parts are being written before they are published (the
  // script that publishes one removes it): what finds the parts of a publication cut short.
  modelsWriting: (db: string) => `{db:${db}}:models:writing`,
  // Pub/sub channel: "<database id> <model id>" of a model just published.
  modelsChannel: () => 'recd:models',
  // Impressions (store/outcomes-store.ts): HASH batch name -> LuaFrame of the answers one process
  // recorded together (outcomes-scripts.ts ANSWER); ZSET "<batch name> <answers>" scored by when it
  // was stored (ms), the order they are trimmed in; STRING how many answers the batches hold.
  impressionBatches: (db: string) => `{db:${db}}:impressions:batches`,
  impressionOrder: (db: string) => `{db:${db}}:impressions:order`,
  impressionCount: (db: string) => `{db:${db}}:impressions:count`,
  // HASH "<answer> <item> <interaction type>" -> d|v: the credit given to one batch's answers
  // (direct or view-through), so each is counted once; removed with its batch. The prefix.
  impressionCreditsPrefix: (db: string) => `{db:${db}}:impressions:credits:`,
  // LIST the latest answers shown to one viewer (u:<user id> or s:<session id>), newest first, at most
  // 100 (outcomes-scripts.ts SHOWN): for view-through credit and rotation; expires with the attribution
  // window after the last. The prefix.
  shownPrefix: (db: string) => `{db:${db}}:shown:`,
  // ZSET viewer scored by when their shown items expire (ms): how trimming and deletion find them.
  shownViewers: (db: string) => `{db:${db}}:shown:viewers`,
  // HASH "<group>\x1f<counter>" -> count, of the answers of one UTC day (outcomes-scripts.ts); and
  // HyperLogLogs of the users shown and the users who acted, per day and group: the prefix.
  outcomesPrefix: (db: string) => `{db:${db}}:outcomes:`,
  // ZSET the names of those keys scored by when they expire (ms): trimmed by the scripts that write
  // them, and how deleting the database finds them.
  outcomeKeys: (db: string) => `{db:${db}}:outcomes-keys`,
  // STRING msgpack result of one analytics_replay task (services/outcomes/replay.ts), with a TTL; listed
  // from that task's records.
  replayResult: (db: string, task: string) => `{db:${db}}:replay:${task}`,
  // HASH table name -> msgpack TableDef: the database's precomputed recommendation tables.
  tables: (db: string) => `{db:${db}}:tables`,
  // STRING a built table: rows × amt uint32 item rows (0xffffffff: none), little-endian.
  tableBlob: (db: string, name: string) => `{db:${db}}:tables:blob:${name}`,
  // Pub/sub channel: "<database id> <table name>" of a table rebuilt or deleted.
  tablesChannel: () => 'recd:tables',
} as const;
