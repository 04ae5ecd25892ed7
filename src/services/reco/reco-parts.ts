// What the recommendation endpoints answer with: the stores and services they read and the caches
// they share, made once by RecommendService.
import type { ModelRegistry } from '../../engine/model/registry.js';
import type { EntitiesStore } from '../../store/entities-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import type { Pager } from './paging/pager.js';
import type { RecoPlanner } from './request/planner.js';
import type { TableService } from './paging/precomputed-tables.js';
import type { SessionInputs } from './request/session-input.js';
import type { Shaper } from './paging/shaping.js';
import type { UserProfiles } from './request/user-profiles.js';
import type { ValueRankings } from './paging/value-rankings.js';
import type { RotationReads } from '../outcomes/rotation.js';

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
  rotation: RotationReads;
}
