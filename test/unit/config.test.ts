// Configuration from the environment: defaults, and boot errors naming the bad key.
import t from 'tap';
import { loadConfig } from '../../src/config/env.js';

t.test('defaults', async (t) => {
  const c = loadConfig({});
  t.equal(c.port, 8080);
  t.equal(c.host, '127.0.0.1');
  t.equal(c.redisUrl, undefined);
  t.equal(c.jwtTtlSeconds, 3600);
  t.equal(c.refreshTtlSeconds, 60 * 86400);
});

t.test('bad values name the variable', async (t) => {
  for (const [key, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['REDIS_URL', 'not a url'],
    ['RECD_MAX_BODY_BYTES', '-1'],
    ['LOG_LEVEL', 'loud'],
  ]) {
    t.throws(() => loadConfig({ [key!]: value }), new RegExp(key!), `${key}=${value}`);
  }
  t.throws(() => loadConfig({ RECD_ROOT_EMAIL: 'a@b.c' }), { name: 'ConfigError', message: /RECD_ROOT_PASSWORD/ }, 'root e-mail without password');
});
