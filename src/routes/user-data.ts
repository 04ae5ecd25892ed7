// `DELETE users/<user_id>/*/`: everything stored about one user.
import { Type } from '@sinclair/typebox';
import { BACKENDS, dbRoute, type Route } from '../http/types.js';
import type { EntityService } from '../services/entities.js';
import { parseId } from '../services/identifiers.js';
import type { InteractionService } from '../services/interactions.js';

export const userDataRoutes = (entities: EntityService, interactions: InteractionService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'DELETE',
    path: 'users/<user_id>/*/',
    summary: "remove everything about one user: property values, ratings and interactions",
    params: Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    handler: async ({ auth, db, params }) => {
      await entities.remove(auth, db, 'user', [params.user_id]);
      await interactions.forgetUser(db, parseId(auth, 'user', params.user_id, false).key);
    },
  }),
];
