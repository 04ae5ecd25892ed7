// Engine layer of the composition root: the model registry, the training and scoring pools, and
// the training scheduler.
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import { ModelRegistry } from '../engine/model/registry.js';
import { ScoringPool } from '../engine/scoring/pool.js';
import type { AlsParams, ItemFeatures } from '../engine/training/tasks.js';
import type { SearchOptions } from '../engine/training/search.js';
import { TrainingPool } from '../engine/training/pool.js';
import { TrainingScheduler } from '../engine/training/scheduler.js';
import type { Stores } from './storage.js';

const DAY_SECONDS = 86400;

export interface Engine {
  registry: ModelRegistry;
  scheduler: TrainingScheduler; // not started: the app starts it once broadcasts are watched
  scoring: ScoringPool;
  // Stops the scheduler and the training pool (interrupting a run), then the scoring pool.
  stop(): Promise<void>;
}

// The configured training parameters (a search replaces the objective's ones per database).
export function trainingParams(config: Config): AlsParams {
  return {
    factors: config.alsFactors,
    iterations: config.alsIterations,
    regularization: config.alsRegularization,
    alpha: config.alsAlpha,
    unobserved: config.alsUnobserved,
    regExponent: config.alsRegExponent,
    ratingShift: 0,
    ratingFloor: 0,
    cgSteps: config.alsCgSteps,
    listLength: config.listLength,
    userListsSeconds: config.userListsSeconds,
    indexMinItems: config.itemIndexMinItems,
    popularityHalfLifeSeconds: config.popularityHalfLifeDays * DAY_SECONDS,
    seed: config.trainingSeed,
  };
}

export function searchOptions(config: Config): SearchOptions {
  return {
    seconds: config.searchSeconds,
    maxTrials: config.searchTrials,
    iterations: config.searchIterations,
    maxRatings: config.searchMaxRatings,
    easeMaxItems: config.easeMaxItems,
    candidates: config.searchCandidates,
  };
}

// itemFeatures: a catalogue's item features, for ml_new_items (from the services layer).
export function buildEngine(config: Config, stores: Stores, itemFeatures: (db: string) => Promise<ItemFeatures>, logger: Logger): Engine {
  const registry = new ModelRegistry(stores.models, (db, kind, from, to) => stores.entities.idsAt(db, kind, from, to), logger);
  const pool = new TrainingPool(config.trainingThreads || availableParallelism(), config.trainingNice);
  const scoring = new ScoringPool(config.scoringThreads || availableParallelism());
  const scheduler = new TrainingScheduler(
    {
      training: stores.training,
      log: stores.ratingsLog,
      models: stores.models,
      tasks: stores.tasks,
      databases: stores.databases,
      tables: stores.tables,
      registry,
      pool,
      itemFeatures,
      logger,
    },
    {
      pollMs: config.trainingPollMs,
      retrySeconds: config.trainingRetrySeconds,
      maxRetries: config.trainingMaxRetries,
      retrainIntervalSeconds: config.retrainIntervalSeconds,
      lockTtlMs: config.trainingLockTtlMs,
      runSeconds: config.quotaTrainingSeconds,
      runs: config.trainingRuns,
      quiet: { seconds: config.trainingQuietSeconds, maxSeconds: config.trainingQuietMaxSeconds },
      search: { ...searchOptions(config), intervalSeconds: config.searchIntervalDays * DAY_SECONDS },
      params: trainingParams(config),
    },
  );
  const stop = async () => {
    // The pool ends with the scheduler's stop, not after it: a run in progress fails at once (recorded
    // as interrupted and queued again) instead of holding the stop for as long as it trains.
    const scheduled = scheduler.stop();
    await pool.close();
    await scheduled;
    await scoring.close();
  };
  return { registry, scheduler, scoring, stop };
}
