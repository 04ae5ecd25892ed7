// Metrics of the composition root: the registry (when RECD_METRICS_PORT is set) and what it reads
// from the layers when scraped. The HTTP layer's hook and the listener are in wiring/http.ts.
import type { Config } from '../config/env.js';
import { Metrics } from '../metrics/registry.js';
import { timeCommands, type Connection } from '../store/redis.js';
import type { Ingested } from '../services/usage/ingested.js';
import type { Engine } from './engine.js';
import type { OutcomeCounts } from '../services/outcomes/outcome-counts.js';

// prepared: changed users' profiles by outcome (services/reco/request/fresh-profiles.ts).
export function startMetrics(
  config: Config,
  engine: Engine,
  redis: Connection,
  ingested: Ingested,
  prepared: Record<string, number>,
  outcomes: OutcomeCounts,
  worker: number | undefined,
): Metrics | undefined {
  if (config.metricsPort === undefined) return undefined;
  const metrics = new Metrics(worker);
  metrics.countersOf(
    'recd_scoring_rankings_total',
    'rankings served to requests by how they were made: precomputed (a list made at training), cached (made by an earlier request), inline (scored on the event loop), pool (scored in the scoring pool)',
    'path',
    () => engine.scoring.paths,
  );
  metrics.countersOf(
    'recd_bulk_rows_ingested_total',
    'rows stored by bulk writes (ratings-bulk/ and users/<user_id>/ratings/, interactions-bulk/ of users and sessions, items-bulk/ and users-bulk/), by kind',
    'kind',
    () => ingested,
  );
  metrics.countersOf(
    'recd_fresh_profiles_total',
    'users whose feedback changed, by whether this process read and folded in their profile before their next request (prepared) or found a request had done it first (found)',
    'outcome',
    () => prepared,
  );
  metrics.seriesOf(
    'recd_recommendation_answers_total',
    'item-list answers recorded (impressions), per database, reco type and scenario (the one the request named, else the default)',
    ['db', 'reco_type', 'scenario'],
    () => outcomes.answers.entries(),
  );
  metrics.seriesOf(
    'recd_credited_interactions_total',
    'interactions credited to an answer, per database, reco type, scenario, kind (direct: they named its recommendation_id; view-through) and interaction type',
    ['db', 'reco_type', 'scenario', 'kind', 'type'],
    () => outcomes.credited.entries(),
  );
  timeCommands(redis, metrics.redisCommands());
  engine.scheduler.onRun = metrics.trainingRuns();
  const held = () => engine.registry.heldModels();
  metrics.perDatabase(
    'recd_model_age_seconds',
    'age of the model this process serves, per database (those it holds: served recently)',
    function* () {
      const now = Date.now() / 1000;
      for (const [db, m] of held()) yield [db, now - m.meta.timestamp];
    },
  );
  metrics.perDatabase('recd_model_bytes', 'size of the model this process serves, per database (those it holds)', function* () {
    for (const [db, m] of held()) yield [db, m.buffer.byteLength];
  });
  return metrics;
}
