// The organisation's metadata, which the hosted service's Python client reads and deep-merges
// (beyond the spec; docs/api-choices.md "Organisation metadata"). Roles as for the organisation's
// accounts listing beside it: root and manager.
import { Type } from '@sinclair/typebox';
import { ADMINS } from '../contract/roles.js';
import { authedRoute, type Route } from '../contract/routes.js';
import { Metadata } from '../schemas/common.js';
import type { AccountService } from '../services/accounts/accounts.js';
import { OrgMetadata, OrgPreview } from '../schemas/responses.js';

const MetadataPatch = Type.Object({ metadata: Metadata, preserve: Type.Optional(Type.Boolean()) });

export const organizationRoutes = (accounts: AccountService): Route[] => [
  authedRoute(ADMINS, {
    method: 'GET',
    path: 'organizations/current/',
    summary: "the organisation's metadata",
    response: OrgMetadata,
    handler: async ({ auth }) => ({ metadata: await accounts.orgMetadata(auth.org) }),
  }),
  authedRoute(ADMINS, {
    method: 'PATCH',
    path: 'organizations/current/',
    summary: "deep-merge into the organisation's metadata (RFC 7396; preserve appends lists)",
    response: OrgMetadata,
    body: MetadataPatch,
    handler: async ({ auth, body }) => ({
      metadata: (await accounts.patchOrgMetadata(auth.org, body.metadata, body.preserve ?? false, true)).metadata_new,
    }),
  }),
  authedRoute(ADMINS, {
    method: 'PATCH',
    path: 'organizations/current/preview/',
    summary: 'what PATCH organizations/current/ would make of the metadata; stores nothing',
    response: OrgPreview,
    body: MetadataPatch,
    handler: ({ auth, body }) => accounts.patchOrgMetadata(auth.org, body.metadata, body.preserve ?? false, false),
  }),
];
