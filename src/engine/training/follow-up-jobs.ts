// The tasks that follow a training: ml_new_items (items nobody rated get factors from their
// properties, and lists) and precomputed_tables (tables from the current model).
import { randomUUID } from 'node:crypto';
import { listNewItems } from './lists.js';
import { algorithmOf, publishedLists } from './lists-choice.js';
import type { TrainingPool } from './pool.js';
import { evenRanges } from './ranges.js';
import type { ModelRegistry } from '../model/registry.js';
import type { ModelMeta, ModelsStore } from '../../store/models-store.js';
import type { TablesStore } from '../../store/tables-store.js';
import type { ItemFeatures } from './tasks.js';

// What these jobs use of the scheduler's dependencies (scheduler.ts SchedulerDeps).
interface JobDeps {
  registry: ModelRegistry;
  models: ModelsStore;
  tables: TablesStore;
  itemFeatures: (db: string) => Promise<ItemFeatures>;
}

export async function newItems(
  d: JobDeps,
  db: string,
  owner: string,
  progress: (text: string) => void,
  pool: TrainingPool,
  listSeconds: number,
): Promise<string> {
  const current = await d.registry.latest(db);
  if (!current) return 'no trained model yet: the first training covers every item';
  progress('reading item properties');
  const features = await d.itemFeatures(db);
  const extended = await pool.extend({ model: current.buffer, features });
  if (extended.targets === 0) return 'every item has trained factors: nothing to do';
  progress(`lists of ${extended.targets.toLocaleString('en-US')} items`);
  const listed = await listNewItems(pool, extended.model, extended.targetRows, listSeconds, progress);
  const dims = extended.dims;
  const meta: ModelMeta = {
    ...current.meta,
    model_id: randomUUID(),
    timestamp: Date.now() / 1000,
    algorithm: algorithmOf(publishedLists(current.meta), true),
    n_items: dims.items,
    bytes: extended.model.byteLength,
    metrics: {
      ...current.meta.metrics,
      new_items: extended.targets,
      new_items_from_properties: extended.fromFeatures,
      new_items_listed: listed,
    },
  };
  if (!(await d.models.publish(db, owner, meta, extended.model))) throw new Error('lost the trainer lock before publishing');
  return `model ${meta.model_id}: ${extended.targets} items without ratings given factors, ${extended.fromFeatures} of them from items sharing property values`;
}

// Every table of the database from the current model (in the pool, one row range per thread).
export async function buildTables(d: JobDeps, db: string, progress: (text: string) => void, pool: TrainingPool): Promise<string> {
  const defs = await d.tables.list(db);
  if (defs.length === 0) return 'no precomputed tables are defined';
  const model = await d.registry.latest(db);
  if (!model) throw new Error('no trained model yet: tables are built from a model');
  let built = 0;
  for (const def of defs) {
    progress(`table ${def.name} (${built + 1}/${defs.length})`);
    const rows = def.reco_type === 'item_to_items' ? model.views.dims.items : model.views.dims.users;
    const dst = new SharedArrayBuffer(rows * def.amt * 4);
    const parts = evenRanges(rows, pool.threads);
    await Promise.all(
      parts.map(([rowStart, rowEnd]) => pool.table({ model: model.buffer, kind: def.reco_type, amt: def.amt, rowStart, rowEnd, dst })),
    );
    if (await d.tables.store(db, { ...def, built: { model_id: model.id, built_at: Date.now() / 1000, rows } }, new Uint8Array(dst)))
      built++;
  }
  return `${built} of ${defs.length} tables built from model ${model.id}`;
}
