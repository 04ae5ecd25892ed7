// Background tasks on request and the trained models of the database.
import { Type } from '@sinclair/typebox';
import { BACKENDS } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import type { ModelTaskService } from '../services/databases/model-tasks.js';
import { PathName } from '../schemas/ids.js';
import { TaskQueued, TrainedModels } from '../schemas/model-answers.js';

export const modelRoutes = (models: ModelTaskService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'POST',
    path: 'tasks/<task_name>/',
    summary: 'queue a background task (ml_model_retrain, ml_new_items) unless one is queued or running',
    response: TaskQueued,
    params: Type.Object({ task_name: PathName }),
    handler: ({ db, params }) => models.trigger(db, params.task_name!),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'pretrained-ml/trained-models/',
    summary: 'models published for the database, newest first',
    response: TrainedModels,
    handler: ({ db }) => models.list(db),
  }),
];
