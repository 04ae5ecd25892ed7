// Explicit ratings: `ratings-bulk/` (all users) and `users/<user_id>/ratings/` (one user, one rating).
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { ALL4, BACKENDS } from '../contract/roles.js';
import { dbRoute, type Route } from '../contract/routes.js';
import type { Rows as RowsValue } from '../contract/columnar.js';
import { RowsOf } from '../schemas/common.js';
import type { RatingService } from '../services/feedback/ratings.js';
import { idParams } from '../schemas/ids.js';
import { RatingsPage, UserRatings, Written } from '../schemas/responses.js';

const MAX_ROWS = 1_000_000;
const Rows = RowsOf(Type.Unknown(), MAX_ROWS); // each row checked by the service, which names the bad one
const User = idParams('user_id');
const UserItem = idParams('user_id', 'item_id');

export const ratingRoutes = (ratings: RatingService): Route[] => [
  dbRoute(BACKENDS, {
    method: 'PUT',
    path: 'ratings-bulk/',
    summary: 'create or replace ratings of any users',
    response: Written,
    body: Type.Object({ ratings: Rows }),
    columnar: ['ratings'],
    handler: ({ auth, db, body }) => ratings.put(auth, db, body.ratings as RowsValue),
  }),
  dbRoute(BACKENDS, {
    method: 'GET',
    path: 'ratings-bulk/',
    summary: 'every rating, a page at a time',
    listing: ({ query }) => query.amt ?? LIMITS.ratingsAmtDefault,
    response: RatingsPage,
    query: Type.Object({
      amt: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.ratingsAmtMax })),
      cursor: Type.Optional(Type.String({ maxLength: 256 })),
    }),
    handler: ({ auth, db, query }) => ratings.page(auth, db, query.amt ?? LIMITS.ratingsAmtDefault, query.cursor || undefined),
  }),
  dbRoute(ALL4, {
    method: 'PUT',
    path: 'users/<user_id>/ratings/',
    frontend: 'user',
    summary: "create or replace some of one user's ratings",
    response: Written,
    params: User,
    body: Type.Object({ ratings: Rows }),
    columnar: ['ratings'],
    handler: ({ auth, db, params, body }) => ratings.put(auth, db, body.ratings as RowsValue, params.user_id),
  }),
  dbRoute(ALL4, {
    method: 'GET',
    path: 'users/<user_id>/ratings/',
    frontend: 'user',
    summary: "one user's ratings, newest first, a page at a time",
    listing: ({ query }) => query.amt ?? LIMITS.ratingsAmtDefault,
    response: UserRatings,
    params: User,
    query: Type.Object({
      amt: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.ratingsAmtMax })),
      page: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
    handler: ({ auth, db, params, query }) =>
      ratings.ofUser(auth, db, params.user_id, query.amt ?? LIMITS.ratingsAmtDefault, query.page ?? 1),
  }),
  dbRoute(ALL4, {
    method: 'DELETE',
    path: 'users/<user_id>/ratings/',
    frontend: 'user',
    summary: 'remove every rating of one user',
    response: null,
    params: User,
    handler: ({ auth, db, params }) => ratings.remove(auth, db, params.user_id),
  }),
  dbRoute(ALL4, {
    method: 'PUT',
    path: 'users/<user_id>/ratings/<item_id>/',
    frontend: 'user',
    summary: 'create or replace one rating',
    response: null,
    params: UserItem,
    body: Type.Object({ rating: Type.Unknown(), timestamp: Type.Optional(Type.Unknown()) }),
    handler: ({ auth, db, params, body }) => ratings.putOne(auth, db, params.user_id, params.item_id, body.rating, body.timestamp),
  }),
  dbRoute(ALL4, {
    method: 'DELETE',
    path: 'users/<user_id>/ratings/<item_id>/',
    frontend: 'user',
    summary: 'remove one rating',
    response: null,
    params: UserItem,
    handler: ({ auth, db, params }) => ratings.remove(auth, db, params.user_id, params.item_id),
  }),
];
