// Background tasks on request and the published models: POST tasks/<name>/ and
// GET pretrained-ml/trained-models/.
import { duplicated, notFound } from '../../errors/api-error.js';
import type { ModelRegistry } from '../../engine/model/registry.js';
import { TASK_NAMES, type TaskName, type TrainingScheduler } from '../../engine/training/scheduler.js';
import type { ModelsStore } from '../../store/models-store.js';

const LISTED = 50;

export class ModelTaskService {
  constructor(
    private readonly scheduler: TrainingScheduler,
    private readonly models: ModelsStore,
    private readonly registry: ModelRegistry,
  ) {}

  async trigger(db: string, name: string) {
    if (!(TASK_NAMES as readonly string[]).includes(name)) {
      throw notFound('TASK_NOT_FOUND', 'task', name, `no background task ${JSON.stringify(name)}: tasks are ${TASK_NAMES.join(', ')}`);
    }
    // A queued run is joined, a running one gets a follow-up: the answer's task sees everything stored before.
    const r = await this.scheduler.trigger(db, name as TaskName, 'requested: waiting for a trainer', true);
    if (r === undefined)
      throw duplicated('TASK_ALREADY_RUNNING', 'task', name, `${name} runs were starting as this request came: send it again`);
    return { task_id: r.taskId, warnings: [] as string[] };
  }

  // Newest first. Listing a database's models also loads its current one here, so this process
  // keeps the next announced versions loaded too (`loaded`).
  async list(db: string) {
    const [listed, current] = await Promise.all([this.models.list(db, LISTED), this.registry.current(db)]);
    return {
      models: listed.map((m) => ({ ...m, serving: m.model_id === current?.id, loaded: this.registry.held(db)?.id === m.model_id })),
      warnings: [] as string[],
    };
  }
}
