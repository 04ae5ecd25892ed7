// GET {base_url}/: the unauthenticated greeting.
import { publicRoute, reply, type Route } from '../http/types.js';

const GREETING = 'recd: recommendation service';

export const rootRoutes = (): Route[] => [
  publicRoute({ method: 'GET', path: '/', summary: 'greeting', handler: () => reply(200, GREETING, { allow: 'GET, HEAD, OPTIONS' }) }),
];
