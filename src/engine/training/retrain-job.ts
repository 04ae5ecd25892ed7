// The ml_model_retrain job: the ratings read (snapshot and log), trained (trainer.ts, a search when
// due), the model published and the snapshot compacted; what follows it (new items' factors,
// tables) queued.
import { modelViews } from '../model/layout.js';
import type { ModelMeta } from '../../store/models-store.js';
import { decodeSnapshot } from './ratings-replay.js';
import { chosenParams, retrainedMeta } from './model-record.js';
import { trainAls } from './trainer.js';
import type { TrainingPool } from './pool.js';
import { publishedLists } from './lists-choice.js';
import type { AlsParams } from './tasks.js';
import type { SearchOptions } from './search.js';
import type { DatabasesStore } from '../../store/databases-store.js';
import type { ModelsStore } from '../../store/models-store.js';
import type { TablesStore } from '../../store/tables-store.js';
import type { TrainingStore } from '../../store/training-store.js';
import type { RatingsLog } from '../../store/ratings-log.js';
import type { ModelRegistry } from '../model/registry.js';

// The task whose runs may be hurried: an explicit request for it ends a run's users' lists early
// (scheduler.ts trigger).
export const HURRIED = 'ml_model_retrain';

// What the job uses of the scheduler's dependencies and options (scheduler.ts).
interface RetrainDeps {
  training: TrainingStore;
  log: RatingsLog;
  models: ModelsStore;
  databases: DatabasesStore;
  tables: TablesStore;
  registry: ModelRegistry;
}
interface RetrainOptions {
  pollMs: number;
  params: AlsParams;
  search: SearchOptions & { intervalSeconds: number };
}
type FollowUp = 'ml_new_items' | 'precomputed_tables';

export async function retrain(
  d: RetrainDeps,
  o: RetrainOptions,
  db: string,
  owner: string,
  progress: (text: string) => void,
  pool: TrainingPool,
  trigger: (db: string, name: FollowUp, why: string) => Promise<unknown>,
): Promise<string> {
  await d.training.feedbackSeen(db);
  progress('reading ratings (0%)');
  const previous = await currentMeta(d, db);
  const sizes = await d.training.sizes(db);
  const stored = await d.training.snapshot(db);
  const log = await d.log.entriesSince(db, stored.after);
  const searched = previous?.search;
  const s = o.search;
  // A full search on the first training, then when the last is older than the interval or the
  // data have doubled since; retrains in between keep its choice.
  const dueByTime = s.seconds > 0 && (!searched || Date.now() / 1000 - searched.at >= s.intervalSeconds);
  const due = (ratings: number) => dueByTime || (s.seconds > 0 && searched !== undefined && ratings >= 2 * searched.ratings);
  const base = searched && previous ? chosenParams(o.params, previous.params) : o.params;
  const reuse = searched && previous ? publishedLists(previous) : undefined;
  // The last search's choice starts the next search; the last model's factors start a fit without
  // one. A search due by its age is known before the ratings are read, and then the last model (which
  // a process that does not serve the database would load for this alone) is not needed.
  const warm = searched && previous ? { lists: reuse } : undefined;
  const start = previous && !dueByTime ? (await d.registry.latest(db))?.buffer : undefined;
  // Asked to hurry (trigger) once a retrain requested explicitly waits behind this one.
  let hurried = false;
  const watch = setInterval(
    () =>
      void d.training.hurried(db, HURRIED).then(
        (h) => void (hurried ||= h),
        () => undefined,
      ),
    o.pollMs,
  );
  // The compacted ratings are stored while the model trains (20–30 s at 20M ratings): they are the
  // next run's snapshot whatever this run's outcome, and the run ends only once they are.
  let compacting: Promise<unknown> = Promise.resolve();
  const compacted = (blob: Uint8Array) =>
    void (compacting = d.training.compact(db, blob, log.last).then(
      () => undefined,
      (err: unknown) => err ?? new Error('compacting the ratings failed'),
    ));
  const input = { snapshot: stored.blob && decodeSnapshot(stored.blob), log: log.entries, ...sizes, start, compacted };
  const trained = await trainAls(pool, input, base, progress, { ...s, due, reuse, warm }, () => hurried).finally(async () => {
    clearInterval(watch);
    await compacting;
  });
  const search = trained.searched?.summary ?? searched;
  const chosen = search?.trials[search.chosen];
  progress('publishing (99%)');
  const views = modelViews(trained.model);
  const meta = retrainedMeta(trained, search, log.last);
  // The buffer whole: a model past 4 GiB has no Uint8Array view.
  if (!(await d.models.publish(db, owner, meta, trained.model))) throw new Error('lost the trainer lock before publishing');
  await markReady(d, db);
  const failed = await compacting;
  if (failed) throw failed;
  // Items nobody rated have no trained factors: their properties give them some.
  if (views.itemCounts.some((c) => c === 0))
    await trigger(db, 'ml_new_items', 'after a training: items without ratings get factors from their properties');
  if ((await d.tables.list(db)).length > 0) await trigger(db, 'precomputed_tables', 'after a training: tables follow the new model');
  const quality =
    chosen && search
      ? `; validation NDCG@10 ${chosen.ndcg_at_10.toFixed(4)} (popularity ${search.popularity.ndcg_at_10.toFixed(4)})${trained.searched ? `, ${search.trials.length} search trials in ${search.seconds.toFixed(1)} s${search.budget_seconds === undefined ? '' : ` of ${search.budget_seconds.toFixed(1)}`}${search.ended === 'no gain' ? ', ended when validation stopped improving' : ''}` : ''}`
      : '';
  const from = trained.warm ? `; fitted from the last model's factors in ${trained.params.iterations} iterations` : '';
  const cut = trained.listed.cut
    ? `; users' lists ended early for the retrain requested meanwhile (${trained.listed.users} of ${trained.users} users listed)`
    : '';
  return `model ${meta.model_id}: ${meta.n_users} users, ${meta.n_items} items, ${meta.n_ratings} ratings${quality}${from}${cut}`;
}

async function currentMeta(d: RetrainDeps, db: string): Promise<ModelMeta | undefined> {
  const id = await d.models.current(db);
  return id === undefined ? undefined : await d.models.meta(db, id);
}

async function markReady(d: RetrainDeps, db: string): Promise<void> {
  const record = await d.databases.get(db);
  if (record && record.status !== 'ready') await d.databases.update({ ...record, status: 'ready' });
}
