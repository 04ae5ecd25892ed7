// The API answers the dashboard passes around, as the OpenAPI document types them (@recd/client's
// generated schema): a change of a route's schema breaks the dashboard's build.
import type { paths } from '../../packages/client/src/index.js';

// The JSON body of a path's 200 answer to a method.
type Answer<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer A } } };
}
  ? A
  : never;

export type Model = Answer<'/pretrained-ml/trained-models/', 'get'>['models'][number];
export type Task = Answer<'/tasks/{task_name}/recents/', 'get'>['tasks'][number];
export type ScenarioRecord = Answer<'/scenarios/', 'get'>['scenarios'][number];
export type Recommended = Answer<'/recommendation/generic/items/', 'post'>;
export type Usage = Answer<'/databases/current/usage/', 'get'>;
