// Spec "Account management and login": the login endpoints.
import { Type } from '@sinclair/typebox';
import { authedRoute, publicRoute, type Route } from '../contract/routes.js';
import { AnyId, Email, Name, Secret } from '../schemas/common.js';
import type { LoginService } from '../services/accounts/login.js';
import { LoginAnswer, TokenDescription } from '../schemas/responses.js';

const DbChoice = {
  db_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  db_name: Type.Optional(Name),
};
const Frontend = {
  frontend_user_id: Type.Optional(AnyId),
  frontend_session_id: Type.Optional(AnyId),
};

export const loginRoutes = (login: LoginService): Route[] => [
  publicRoute({
    method: 'POST',
    path: 'login/root/',
    summary: 'log in as root',
    response: LoginAnswer,
    body: Type.Object({ email: Email, password: Secret }),
    handler: ({ body, remoteAddress }) => login.root(body.email, body.password, remoteAddress),
  }),
  publicRoute({
    method: 'POST',
    path: 'login/individual/',
    summary: 'log in as an individual account, optionally on a database',
    response: LoginAnswer,
    body: Type.Object({ email: Email, password: Secret, ...DbChoice, ...Frontend }),
    handler: ({ body, remoteAddress }) => login.individual(body, remoteAddress),
  }),
  publicRoute({
    method: 'POST',
    path: 'login/service/',
    summary: 'log in as a service account with one of its keys',
    response: LoginAnswer,
    body: Type.Object({ name: Name, password: Secret, ...DbChoice, ...Frontend }),
    handler: ({ body, remoteAddress }) => login.service(body, remoteAddress),
  }),
  publicRoute({
    method: 'POST',
    path: 'login/refresh-token/',
    summary: 'new tokens from a refresh token, optionally switching database',
    response: LoginAnswer,
    body: Type.Object({ refresh_token: Secret, ...DbChoice }),
    handler: ({ body }) => login.refresh(body),
  }),
  authedRoute('authenticated', {
    method: 'POST',
    path: 'login/jwt/',
    summary: 'what the presented token says',
    response: TokenDescription,
    handler: ({ auth }) => login.jwt(auth),
  }),
];
