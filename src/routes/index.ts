// The whole route table.
import type { Route } from '../contract/routes.js';
import type { AccountService } from '../services/accounts/accounts.js';
import type { CallHistoryService } from '../services/usage/call-history.js';
import type { DatabaseService } from '../services/databases/databases.js';
import type { EntityService } from '../services/catalogue/entities.js';
import type { LoginService } from '../services/accounts/login.js';
import type { ModelTaskService } from '../services/databases/model-tasks.js';
import type { RecommendService } from '../services/reco/recommend.js';
import type { TableService } from '../services/reco/paging/precomputed-tables.js';
import type { ScenarioService } from '../services/scenarios/scenarios.js';
import type { PropertyService } from '../services/catalogue/properties.js';
import type { InteractionRuleService } from '../services/feedback/interaction-rules.js';
import type { InteractionService } from '../services/feedback/interactions.js';
import type { RatingService } from '../services/feedback/ratings.js';
import type { OutcomeResults } from '../services/outcomes/results.js';
import type { Replays } from '../services/outcomes/replay.js';
import { accountRoutes } from './accounts.js';
import { callCountRoutes } from './call-counts.js';
import { databaseRoutes } from './databases.js';
import { organizationRoutes } from './organizations.js';
import { outcomeRoutes } from './outcomes.js';
import { entityRoutes } from './entities.js';
import { interactionRoutes } from './interactions.js';
import { loginRoutes } from './login.js';
import { modelRoutes } from './models.js';
import { recommendationRoutes } from './recommendations.js';
import { tableRoutes } from './tables.js';
import { scenarioRoutes } from './scenarios.js';
import { propertyRoutes } from './properties.js';
import { ratingRoutes } from './ratings.js';
import { rootRoutes } from './root.js';
import { userDataRoutes } from './user-data.js';

export interface Services {
  accounts: AccountService;
  databases: DatabaseService;
  login: LoginService;
  properties: PropertyService;
  entities: EntityService;
  ratings: RatingService;
  interactions: InteractionService;
  interactionRules: InteractionRuleService;
  models: ModelTaskService;
  recommend: RecommendService;
  tables: TableService;
  callCounts: CallHistoryService;
  scenarios: ScenarioService;
  outcomes: OutcomeResults;
  replays: Replays;
}

export const allRoutes = (s: Services): Route[] => [
  ...rootRoutes(),
  ...loginRoutes(s.login),
  ...accountRoutes(s.accounts, s.login),
  ...organizationRoutes(s.accounts),
  ...databaseRoutes(s.databases),
  ...propertyRoutes(s.properties),
  ...entityRoutes(s.entities),
  ...ratingRoutes(s.ratings),
  ...interactionRoutes(s.interactions, s.interactionRules),
  ...modelRoutes(s.models),
  ...recommendationRoutes(s.recommend),
  ...tableRoutes(s.tables, s.recommend),
  ...userDataRoutes(s.entities, s.interactions),
  ...callCountRoutes(s.callCounts),
  ...scenarioRoutes(s.scenarios),
  ...outcomeRoutes(s.outcomes, s.replays),
];
