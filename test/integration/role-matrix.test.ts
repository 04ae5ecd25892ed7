// Access control of every registered route, generated from the route table: each route × each role and no token.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { ROLES, type Role } from '../../src/contract/roles.js';
import type { Route } from '../../src/contract/routes.js';
import { allRoutes } from '../../src/routes/index.js';
import type { Res } from '../helpers/api.js';
import { createDatabase, errorOf, rootToken, tokenFor } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack();
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

// Building the rows calls no service, so dummy services are enough.
const routes: Route[] = allRoutes({} as any);

// Routes whose success would break the tokens or database that later checks share.
const DESTRUCTIVE = new Set(['DELETE accounts/', 'DELETE databases/current/']);
const keyOf = (r: Route) => `${r.method} ${r.path.replace(/^\/+/, '')}`;

// Path parameters get a dummy value; '/' is the greeting.
const concretePath = (path: string) =>
  path
    .replace(/^\/+/, '')
    .split('/')
    .map((seg) => (/^<[^>]+>$/.test(seg) ? 'x' : seg))
    .join('/');

const sharedDb = await createDatabase(api, root);
const shared = new Map<Role, string>();
for (const role of ROLES) shared.set(role, await tokenFor(api, root, role, sharedDb));

// A token for the role; destructive routes get a fresh database and a fresh account every time.
async function tokenForCall(route: Route, role: Role): Promise<string> {
  if (!DESTRUCTIVE.has(keyOf(route))) return shared.get(role)!;
  return tokenFor(api, root, role, await createDatabase(api, root));
}

const describe = (r: Res) => `${r.status} ${r.body?.error_name ?? ''} ${r.body?.error_data?.name ?? ''}`.trim();

const is401 = (r: Res) => r.status === 401;
const isIncorrectRole = (r: Res) => r.body?.error_data?.name === 'INCORRECT_ROLE';
const seenAccess = new Set<string>();
let calls = 0;

t.test('the route table is not empty and has every access kind', async (t) => {
  t.ok(routes.length > 0);
  const kinds = new Set(routes.map((r) => (typeof r.access === 'string' ? r.access : 'roles')));
  t.same([...kinds].sort(), ['authenticated', 'public', 'roles']);
  t.equal(new Set(routes.map(keyOf)).size, routes.length, 'each method and path once');
  for (const k of DESTRUCTIVE)
    t.ok(
      routes.some((r) => keyOf(r) === k),
      `${k} is registered`,
    );
});

t.test('routes of one user or session that admit frontend tokens declare the binding they need', async (t) => {
  for (const r of routes) {
    const admitsFrontend = Array.isArray(r.access) && r.access.includes('frontend');
    if (r.frontend !== undefined) t.ok(admitsFrontend, `${keyOf(r)}: declares a binding, so it admits frontend tokens`);
    if (!admitsFrontend) continue;
    if (r.path.includes('<user_id>')) t.equal(r.frontend, 'user', `${keyOf(r)}: needs a bound user`);
    if (r.path.includes('<session_id>')) t.equal(r.frontend, 'session', `${keyOf(r)}: needs a bound session`);
  }
  t.ok(routes.some((r) => r.frontend === 'user') && routes.some((r) => r.frontend === 'session'), 'both bindings are in use');
});

// Destructive routes run last, after every shared-token check.
const ordered = [...routes.filter((r) => !DESTRUCTIVE.has(keyOf(r))), ...routes.filter((r) => DESTRUCTIVE.has(keyOf(r)))];

for (const route of ordered) {
  const access = route.access;
  const accessText = typeof access === 'string' ? access : access.join(', ');
  t.test(`${keyOf(route)} [${accessText}]`, async (t) => {
    const path = concretePath(route.path);
    const send = async (token: string | undefined) => {
      calls++;
      return api.call(route.method, path, { token, body: {} });
    };
    const reachesRoute = (r: Res, who: string) => {
      // The shared database has no model: recommendation routes answer the spec's 503 for that.
      const notReady = r.status === 503 && r.body?.error_data?.name === 'DATABASE_NOT_READY' && route.path.startsWith('recommendation/');
      t.ok(r.status < 500 || notReady, `${who}: no 5xx (got ${describe(r)})`);
      t.not(r.status, 405, `${who}: the method is routed`);
      t.not(r.body?.error_data?.name, 'RESOURCE_NOT_FOUND', `${who}: the path is routed`);
    };

    // No token.
    const anon = await send(undefined);
    reachesRoute(anon, 'no token');
    if (access === 'public') {
      seenAccess.add('public');
      t.not(anon.body?.error_data?.name, 'AUTHENTICATION_REQUIRED', `no token: not asked to authenticate (got ${describe(anon)})`);
      t.notOk(isIncorrectRole(anon), 'no token: no role check');
    } else {
      seenAccess.add(access === 'authenticated' ? 'authenticated' : 'roles');
      t.same(errorOf(anon), { status: 401, code: 21, errorName: 'AuthError', name: 'AUTHENTICATION_REQUIRED' }, 'no token: 401');
    }

    for (const role of ROLES) {
      const r = await send(await tokenForCall(route, role));
      reachesRoute(r, role);
      if (access === 'public') {
        // A public route ignores the token: no authentication or role refusal (other 401s, such as a
        // wrong password, belong to the route itself).
        t.not(r.body?.error_data?.name, 'AUTHENTICATION_REQUIRED', `${role}: not asked to authenticate`);
        t.notOk(isIncorrectRole(r), `${role}: no role check`);
      } else if (access === 'authenticated' || access.includes(role)) {
        t.notOk(is401(r), `${role}: not 401 (got ${describe(r)})`);
        t.notOk(isIncorrectRole(r), `${role}: not INCORRECT_ROLE`);
        if (route.database) t.not(r.body?.error_data?.name, 'DATABASE_NOT_FOUND', `${role}: the token's database is found`);
        // The shared frontend token is bound to no user or session: routes of one user's or session's
        // data refuse it, the others let it through.
        if (role === 'frontend' && route.frontend !== undefined) {
          const name = route.frontend === 'user' ? 'INCORRECT_FRONTEND_USER_ID' : 'INCORRECT_FRONTEND_SESSION_ID';
          t.same(errorOf(r), { status: 403, code: 50, errorName: 'ForbiddenError', name }, `unbound frontend: 403 ${name}`);
        } else if (role === 'frontend') {
          t.notOk(/^INCORRECT_FRONTEND_/.test(r.body?.error_data?.name ?? ''), `unbound frontend: no binding needed (got ${describe(r)})`);
        }
      } else {
        t.same(errorOf(r), { status: 403, code: 50, errorName: 'ForbiddenError', name: 'INCORRECT_ROLE' }, `${role}: 403 INCORRECT_ROLE`);
      }
    }
  });
}

t.test('the matrix covered every route with every role and without a token', async (t) => {
  t.equal(calls, routes.length * (ROLES.length + 1));
  t.same([...seenAccess].sort(), ['authenticated', 'public', 'roles']);
  // The shared tokens still work: nothing destructive ran on them.
  for (const role of ROLES) {
    const r = await api.post('login/jwt/', undefined, { token: shared.get(role)! });
    t.equal(r.status, 200, role);
    t.equal(r.body.database?.id, sharedDb, role);
  }
});
