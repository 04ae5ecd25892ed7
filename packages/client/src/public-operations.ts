// The operations that need no token.
// Generated from the OpenAPI document recd serves (GET /v1/openapi.json) by `npm run client:schema`; do not edit.
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /',
  'GET /docs/',
  'GET /docs/{file}/',
  'GET /openapi.json',
  'POST /accounts/individual/reset/',
  'POST /accounts/individual/send-reset-password-email/',
  'POST /login/individual/',
  'POST /login/refresh-token/',
  'POST /login/root/',
  'POST /login/service/',
]);
