// `DELETE users/<user_id>/*/`: everything stored about one user.
import { BACKENDS } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import type { EntityService } from '../services/catalogue/entities.js';
import { parseId } from '../services/ids/request-ids.js';
import type { InteractionService } from '../services/feedback/interactions.js';
import { idParams } from '../schemas/ids.js';

export const userDataRoutes = (entities: EntityService, interactions: InteractionService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'users/<user_id>/*/',
    summary: 'remove everything about one user: property values, ratings and interactions',
    response: null,
    params: idParams('user_id'),
    handler: async ({ auth, db, params }) => {
      await entities.remove(auth, db, 'user', [params.user_id]);
      await interactions.forgetUser(db, parseId(auth, 'user', params.user_id, false).key);
    },
  }),
];
