// Who may call a route: the bearer token checked, its role against the route's roles, a frontend
// token bound to the route's user or session, and a database for the routes that act on one.
import { frontendBound, type Claims } from '../contract/claims.js';
import type { Route } from '../contract/routes.js';
import { forbidden, notFound } from '../errors/api-error.js';
import type { DispatcherOptions } from './exchange.js';

export function authorize(route: Route, header: string, o: Pick<DispatcherOptions, 'auth' | 'admit'>): Claims | undefined {
  if (route.access === 'public') return undefined;
  const claims = o.auth.authenticate(header);
  o.admit?.(claims);
  if (route.access !== 'authenticated' && !route.access.includes(claims.role)) {
    throw forbidden('INCORRECT_ROLE', `role ${claims.role} may not call ${route.method} ${route.path}`);
  }
  if (route.frontend !== undefined && !frontendBound(claims, route.frontend)) {
    const [name, field] =
      route.frontend === 'user'
        ? (['INCORRECT_FRONTEND_USER_ID', 'frontend_user_id'] as const)
        : (['INCORRECT_FRONTEND_SESSION_ID', 'frontend_session_id'] as const);
    throw forbidden(
      name,
      `a frontend token acts on one ${route.frontend}'s data only: log in with ${field} to call ${route.method} ${route.path}`,
    );
  }
  if (route.database && claims.db === undefined) {
    throw notFound('DATABASE_NOT_FOUND', 'database', null, 'this token is not bound to a database: log in with db_id or db_name');
  }
  return claims;
}
