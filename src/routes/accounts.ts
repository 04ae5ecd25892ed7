// Spec "Account management and login": accounts, service keys, password reset.
import { Type } from '@sinclair/typebox';
import { ADMINS } from '../contract/roles.js';
import { authedRoute, publicRoute, type Route } from '../contract/routes.js';
import { CreatableRole, Email, Metadata, Name, Secret, ShortText, Timestamp } from '../schemas/common.js';
import type { AccountService } from '../services/accounts/accounts.js';
import type { LoginService } from '../services/accounts/login.js';
import { idParams } from '../schemas/ids.js';
import { AccountList, Created, CreatedKey } from '../schemas/responses.js';

const listAccounts = (accounts: AccountService, path: string, summary: string) =>
  authedRoute(ADMINS, { method: 'GET', path, summary, response: AccountList, handler: ({ auth }) => accounts.list(auth.org) });

export const accountRoutes = (accounts: AccountService, login: LoginService): Route[] => [
  listAccounts(accounts, 'organizations/current/accounts/', 'accounts of the organisation'),
  listAccounts(accounts, 'organizations/accounts/', 'accounts of the organisation (path used by existing clients)'),
  ...individualRoutes(accounts),
  ...serviceRoutes(accounts),
  ...ownAccountRoutes(accounts, login),
];

const individualRoutes = (accounts: AccountService): Route[] => [
  authedRoute(ADMINS, {
    method: 'POST',
    path: 'accounts/individual/',
    summary: 'create an individual account',
    response: Created,
    body: Type.Object({
      email: Email,
      role: CreatableRole,
      first_name: Type.Optional(ShortText),
      last_name: Type.Optional(ShortText),
      metadata: Type.Optional(Metadata),
      email_redirect_url: Type.Optional(ShortText),
      password: Type.Optional(Secret),
    }),
    handler: async ({ auth, body }) => ({ id: await accounts.createIndividual(auth.org, body) }),
  }),
  authedRoute(ADMINS, {
    method: 'PATCH',
    path: 'accounts/individual/',
    summary: 'change an individual account',
    response: null,
    body: Type.Object({
      email: Email,
      password: Type.Optional(Secret),
      first_name: Type.Optional(ShortText),
      last_name: Type.Optional(ShortText),
      metadata: Type.Optional(Metadata),
    }),
    handler: ({ auth, body }) => accounts.patchIndividual(auth, body),
  }),
  authedRoute(ADMINS, {
    method: 'DELETE',
    path: 'accounts/individual/',
    summary: 'delete an individual account',
    response: null,
    body: Type.Object({ email: Email }),
    handler: ({ auth, body }) => accounts.deleteIndividual(auth, body.email),
  }),
];

const serviceRoutes = (accounts: AccountService): Route[] => [
  authedRoute(ADMINS, {
    method: 'POST',
    path: 'accounts/service/',
    summary: 'create a service account',
    response: Created,
    body: Type.Object({ name: Name, role: CreatableRole, metadata: Type.Optional(Metadata), password: Type.Optional(Secret) }),
    handler: async ({ auth, body }) => ({ id: await accounts.createService(auth.org, body) }),
  }),
  authedRoute(ADMINS, {
    method: 'DELETE',
    path: 'accounts/service/',
    summary: 'delete a service account',
    response: null,
    body: Type.Object({ name: Name }),
    handler: ({ auth, body }) => accounts.deleteService(auth, body.name),
  }),
  authedRoute(ADMINS, {
    method: 'POST',
    path: 'accounts/service/keys/',
    summary: 'create a key for a service account (the secret is shown once)',
    response: CreatedKey,
    body: Type.Object({
      name: Name,
      expiration_timestamp: Type.Optional(Type.Union([Timestamp, Type.Null()])),
      metadata: Type.Optional(Metadata),
    }),
    handler: ({ auth, body }) => accounts.createKey(auth, body.name, body.expiration_timestamp ?? undefined, body.metadata),
  }),
  authedRoute(ADMINS, {
    method: 'DELETE',
    path: 'accounts/service/keys/<key_id>/',
    summary: 'delete a service key',
    response: null,
    params: idParams('key_id'),
    handler: ({ auth, params }) => accounts.deleteKey(auth, params.key_id),
  }),
];

// The token's own account, and a forgotten password (no token).
const ownAccountRoutes = (accounts: AccountService, login: LoginService): Route[] => [
  authedRoute('authenticated', {
    method: 'DELETE',
    path: 'accounts/',
    summary: 'delete the account of the current token',
    response: null,
    handler: ({ auth }) => accounts.deleteSelf(auth),
  }),
  publicRoute({
    method: 'POST',
    path: 'accounts/individual/send-reset-password-email/',
    summary: 'mail a password reset code',
    response: null,
    body: Type.Object({ email: Email, email_redirect_url: ShortText }),
    handler: ({ body, remoteAddress }) => login.sendResetEmail(body.email, body.email_redirect_url, remoteAddress),
  }),
  publicRoute({
    method: 'POST',
    path: 'accounts/individual/reset/',
    summary: 'set a new password with a mailed code',
    response: null,
    body: Type.Object({ code: Secret, email: Email, new_password: Secret, code_expiration_timestamp: Type.Optional(Type.Number()) }),
    handler: ({ body }) => accounts.resetPassword(body.email, body.code, body.new_password),
  }),
];
