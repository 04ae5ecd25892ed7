// The retrain policy for written feedback (explicit or inferred ratings): every write is noted, so an
// automatic retrain waits for writes to settle (quiet-period.ts), and the first time a database's
// count of ratings reaches a threshold (500 · 2^k, reported by the storage scripts) a retrain is
// queued. The weekly retrain of feedback no model has seen is the scheduler's own.
import type { CountChange } from '../../store/rating-records.js';
import type { TrainingScheduler } from './scheduler.js';

export async function retrainOnFeedback(training: TrainingScheduler, db: string, change: CountChange): Promise<void> {
  training.noteFeedback(db);
  if (change.threshold === 0) return;
  await training.trigger(db, 'ml_model_retrain', `the database reached ${change.threshold} ratings; waiting for a trainer`);
}
