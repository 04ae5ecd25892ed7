// Services layer of the composition root: accounts and tokens, the catalogues, the services the
// routes call, and the broadcasts every process listens to.
import { noneIngested, type Ingested } from '../services/usage/ingested.js';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { ModelRegistry } from '../engine/model/registry.js';
import { Scorer } from '../engine/scoring/scorer.js';
import type { Services } from '../routes/index.js';
import { AccountService } from '../services/accounts/accounts.js';
import { LoginService } from '../services/accounts/login.js';
import { LoginThrottle } from '../services/accounts/login-throttle.js';
import { outboxMailer, smtpMailer, type Mailer } from '../services/accounts/mailer.js';
import { TokenService } from '../services/accounts/tokens.js';
import { Catalogues } from '../services/catalogue/catalogues.js';
import { EntityService } from '../services/catalogue/entities.js';
import { PropertyService } from '../services/catalogue/properties.js';
import { DatabaseService } from '../services/databases/databases.js';
import { ModelTaskService } from '../services/databases/model-tasks.js';
import { InteractionLanes } from '../services/feedback/interaction-lanes.js';
import { InteractionRuleService } from '../services/feedback/interaction-rules.js';
import { InteractionService } from '../services/feedback/interactions.js';
import { FeedbackChanges } from '../services/feedback/feedback-changes.js';
import { ProfileCache } from '../services/feedback/profile-cache.js';
import { RatingService } from '../services/feedback/ratings.js';
import { RecoPlanner } from '../services/reco/request/planner.js';
import { TableService } from '../services/reco/paging/precomputed-tables.js';
import { RecommendService } from '../services/reco/recommend.js';
import { TurnBudget } from '../services/reco/request/turn-budget.js';
import { ScenarioService } from '../services/scenarios/scenarios.js';
import { CallHistoryService } from '../services/usage/call-history.js';
import { ChangeTail } from '../store/change-tail.js';
import { keys } from '../store/keys.js';
import type { Connection } from '../store/redis.js';
import type { Engine } from './engine.js';
import type { Stores } from './storage.js';
import { quotasOf } from '../config/quotas.js';
import { Attribution } from '../services/outcomes/attribution.js';
import { COUNTER_DAYS, OutcomeResults } from '../services/outcomes/results.js';
import { Impressions } from '../services/outcomes/impressions.js';
import { OutcomeCounts } from '../services/outcomes/outcome-counts.js';
import { RotationReads } from '../services/outcomes/rotation.js';
import { Replays } from '../services/outcomes/replay.js';
import { RecommendationIds } from '../services/reco/request/recommendation-ids.js';
import type { OutcomeLimits } from '../store/outcomes-store.js';

const DAY_MS = 86_400_000;

// A generated HS256 secret (no RECD_JWT_SECRET): 384 random bits, above the 256 of the hash that
// RFC 7518 §3.2 asks of an HMAC key at least; kept in Redis as base64url text.
const JWT_SECRET_BYTES = 48;

export interface AccountAccess {
  tokens: TokenService;
  accounts: AccountService;
  mailer: Mailer;
}

// Tokens (with the configured secret, else the deployment's shared one), mail and accounts.
export async function buildAccess(config: Config, stores: Stores, logger: Logger): Promise<AccountAccess> {
  const secret = config.jwtSecret ?? (await stores.tokens.jwtSecret(randomBytes(JWT_SECRET_BYTES).toString('base64url')));
  const tokens = new TokenService(secret, stores.tokens, config.jwtTtlSeconds, config.refreshTtlSeconds, config.jwtSecret === undefined);
  const mailer: Mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(stores.outbox, logger);
  const accounts = new AccountService(stores.accounts, tokens, mailer, config.resetCodeTtlSeconds);
  return { tokens, accounts, mailer };
}

// The catalogues, tailing the change stream on a connection of their own (stop() closes it).
export function startCatalogues(redis: Connection, stores: Stores, logger: Logger): Catalogues {
  return new Catalogues(new ChangeTail(redis, logger), stores.entities, stores.properties, logger);
}

export interface BuiltServices {
  services: Services; // what the routes call
  // Resolves when the queued interaction writes have reached Redis.
  drainWrites(): Promise<void>;
  ingested: Ingested; // rows bulk writes stored (metrics)
  outcomeCounts: OutcomeCounts; // answers recorded and interactions credited (metrics)
}

// Logins, throttled; a frontend login naming a session and a user resolves the session.
function buildLogin(config: Config, stores: Stores, access: AccountAccess, databases: DatabaseService, interactions: InteractionService) {
  const throttle = new LoginThrottle(stores.rate, {
    perAccount: config.loginFailuresPerAccount,
    perAddress: config.loginFailuresPerAddress,
    windowSeconds: config.loginWindowSeconds,
  });
  return new LoginService(access.accounts, databases, access.tokens, throttle, (db, session, user) =>
    interactions.link(db, session, user, Date.now() / 1000),
  );
}

// Impressions and attribution (services/outcomes/), unless RECD_IMPRESSIONS=0.
function buildOutcomes(config: Config, stores: Stores, logger: Logger) {
  const counts = new OutcomeCounts();
  if (config.impressions === 0) return { counts, impressions: undefined, attribution: undefined };
  const limits: OutcomeLimits = {
    keepMs: config.impressionsDays * DAY_MS,
    most: config.impressionsMax,
    windowMs: config.attributionWindowSeconds * 1000,
    countersMs: COUNTER_DAYS * DAY_MS,
  };
  return {
    counts,
    impressions: new Impressions(stores.outcomes, limits, counts, logger),
    attribution: new Attribution(stores.outcomes, limits, counts, logger),
  };
}

export function buildServices(
  config: Config,
  stores: Stores,
  catalogues: Catalogues,
  engine: Engine,
  access: AccountAccess,
  logger: Logger,
): BuiltServices {
  const { registry, scheduler, scoring } = engine;
  const databases = new DatabaseService(stores.databases, catalogues, stores.tasks, stores.counts, quotasOf(config));
  const scenarios = new ScenarioService(stores.scenarios, catalogues);
  const properties = new PropertyService(stores.properties, databases, catalogues, (db, name) => scenarios.usesItemProperty(db, name));
  const ingested = noneIngested();
  const entities = new EntityService(stores.entities, scheduler, catalogues, logger, ingested);
  const profiles = new ProfileCache();
  const changes = new FeedbackChanges(
    catalogues.tail,
    stores.ratingsLog,
    (db, user) => engine.registry.held(db)?.userIndex.get(user),
    profiles,
    logger,
  );
  const lanes = new InteractionLanes(stores.interactions, scheduler, changes, logger, config.idempotencyTtlSeconds);
  const ratings = new RatingService(stores.ratings, scheduler, changes, ingested);
  const interactionRules = new InteractionRuleService(stores.settings, catalogues);
  const interactions = new InteractionService(
    stores.interactions,
    stores.ratings,
    interactionRules,
    lanes,
    stores.tasks,
    scheduler,
    logger,
    ingested,
  );
  const login = buildLogin(config, stores, access, databases, interactions);
  const tables = new TableService(stores.tables, scheduler, registry, stores.entities);
  const outcomes = buildOutcomes(config, stores, logger);
  lanes.onStored = outcomes.attribution ? outcomes.attribution.stored.bind(outcomes.attribution) : undefined;
  const recommend = new RecommendService(
    registry,
    catalogues,
    stores.entities,
    stores.ratings,
    interactionRules,
    profiles,
    changes,
    new Scorer(scoring, config.scoringInlineWork),
    new RecoPlanner(scenarios, catalogues, stores.ratings, stores.interactions),
    tables,
    new TurnBudget(config.turnBudgetUs / 1000),
    config.userListCache,
    stores.databases,
    outcomes.impressions ?? new RecommendationIds(),
    new RotationReads(config.impressions === 0 ? undefined : stores.outcomes, config.attributionWindowSeconds / 3600),
    logger,
  );
  const services: Services = {
    accounts: access.accounts,
    databases,
    login,
    properties,
    entities,
    ratings,
    interactions,
    interactionRules,
    models: new ModelTaskService(scheduler, stores.models, registry),
    recommend,
    tables,
    callCounts: new CallHistoryService(stores.callCounts, stores.accounts, stores.databases),
    scenarios,
    outcomes: new OutcomeResults(stores.outcomes, stores.scenarios),
    replays: new Replays(
      stores.outcomes,
      stores.tasks,
      stores.interactions,
      scenarios,
      recommend,
      config.attributionWindowSeconds * 1000,
      logger,
    ),
  };
  return {
    services,
    async drainWrites() {
      await lanes.drained();
      await Promise.all([outcomes.impressions?.stop(), outcomes.attribution?.stop()]);
    },
    ingested,
    outcomeCounts: outcomes.counts,
  };
}

// Revocations, deleted databases and a newly stored JWT secret, from any process. A message published while the subscriber was
// reconnecting is lost, so a reconnect reloads the revocations and forgets every held catalogue.
export async function watchBroadcasts(
  subscriber: Connection,
  tokens: TokenService,
  catalogues: Catalogues,
  models: ModelRegistry,
  tables: TableService,
): Promise<void> {
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === keys.revokedChannel()) tokens.markRevoked(message);
    else if (channel === keys.jwtSecretChannel()) tokens.syncSecret().catch(() => undefined);
    else if (channel === keys.droppedDatabasesChannel()) {
      catalogues.drop(message);
      models.drop(message);
    } else if (channel === keys.modelsChannel()) {
      const [db, id] = message.split(' ');
      if (db && id) models.announced(db, id);
    } else if (channel === keys.tablesChannel()) {
      const [db, name] = message.split(' ');
      if (db && name) tables.changed(db, name);
    }
  });
  await subscriber.subscribe(
    keys.revokedChannel(),
    keys.droppedDatabasesChannel(),
    keys.modelsChannel(),
    keys.tablesChannel(),
    keys.jwtSecretChannel(),
  );
  await tokens.loadRevoked();
  subscriber.on('ready', () => {
    catalogues.dropAll();
    models.dropAll();
    tokens.loadRevoked().catch(() => undefined);
    tokens.syncSecret().catch(() => undefined);
  });
}
