// GET {base_url}/: the unauthenticated greeting.
import { Greeting } from '../schemas/responses.js';
import { publicRoute, reply, type Route } from '../contract/routes.js';

// One immutable answer: the greeting is on the hot path of health checks.
const GREETING = reply(200, 'recd: recommendation service', { allow: 'GET, HEAD, OPTIONS' });

export const rootRoutes = (): Route[] => [
  publicRoute({ method: 'GET', path: '/', summary: 'greeting', response: Greeting, handler: () => GREETING }),
];
