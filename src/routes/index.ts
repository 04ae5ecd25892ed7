// The whole route table.
import type { Route } from '../http/types.js';
import type { AccountService } from '../services/accounts.js';
import type { DatabaseService } from '../services/databases.js';
import type { EntityService } from '../services/entities.js';
import type { LoginService } from '../services/login.js';
import type { PropertyService } from '../services/properties.js';
import { accountRoutes } from './accounts.js';
import { databaseRoutes } from './databases.js';
import { entityRoutes } from './entities.js';
import { loginRoutes } from './login.js';
import { propertyRoutes } from './properties.js';
import { rootRoutes } from './root.js';

export interface Services {
  accounts: AccountService;
  databases: DatabaseService;
  login: LoginService;
  properties: PropertyService;
  entities: EntityService;
}

export const allRoutes = (s: Services): Route[] => [
  ...rootRoutes(),
  ...loginRoutes(s.login),
  ...accountRoutes(s.accounts),
  ...databaseRoutes(s.databases),
  ...propertyRoutes(s.properties),
  ...entityRoutes(s.entities),
];
