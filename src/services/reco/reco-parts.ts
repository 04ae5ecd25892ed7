// What the recommendation endpoints answer with: the stores and services they read and the caches
// they share, made once by RecommendService.
import type { ModelRegistry } from '../../engine/model/registry.js';
import type { EntitiesStore } from '../../store/entities-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import type { Pager } from './paging.js';
import type { RecoPlanner } from './planner.js';
import type { TableService } from './precomputed-tables.js';
import type { SessionInputs } from './session-input.js';
import type { Shaper } from './shaping.js';
import type { UserProfiles } from './user-profiles.js';
import type { ValueRankings } from './value-rankings.js';

export interface RecoParts {
  registry: ModelRegistry;
  catalogues: Catalogues;
  entities: EntitiesStore;
  planner: RecoPlanner;
  shaper: Shaper;
  pager: Pager;
  users: UserProfiles;
  sessions: SessionInputs;
  values: ValueRankings;
  tables: TableService;
}
