// REDIS_URL and REDIS_CLUSTER_NODES: one Redis, a cluster's nodes, a Sentinel group's primary.
import t from 'tap';
import { ConfigError, loadConfig } from '../../src/config/env.js';
import { parseRedisTarget, RedisUrlError } from '../../src/config/redis-target.js';

t.test('a plain URL names one Redis', async (t) => {
  t.same(parseRedisTarget('redis://127.0.0.1:6380/0'), { kind: 'single', url: 'redis://127.0.0.1:6380/0' });
  t.same(parseRedisTarget('rediss://user:pw@redis.example.com:6380'), { kind: 'single', url: 'rediss://user:pw@redis.example.com:6380' });
});

t.test('a cluster URL lists nodes, with credentials and TLS', async (t) => {
  t.same(parseRedisTarget('redis+cluster://127.0.0.1:7000,127.0.0.1:7001'), {
    kind: 'cluster',
    nodes: [
      { host: '127.0.0.1', port: 7000 },
      { host: '127.0.0.1', port: 7001 },
    ],
    tls: false,
  });
  t.same(parseRedisTarget('rediss+cluster://app:p%40ss@a.example:7000,[::1]:7001,b.example/'), {
    kind: 'cluster',
    nodes: [
      { host: 'a.example', port: 7000 },
      { host: '::1', port: 7001 },
      { host: 'b.example', port: 6379 },
    ],
    tls: true,
    username: 'app',
    password: 'p@ss',
  });
  t.same(parseRedisTarget('redis+cluster://:secret@h:1'), {
    kind: 'cluster',
    nodes: [{ host: 'h', port: 1 }],
    tls: false,
    password: 'secret',
  });
  for (const bad of [
    'redis+cluster://',
    'redis+cluster://h:0',
    'redis+cluster://h:70000',
    'redis+cluster://h:x',
    'redis+cluster://h:1/db',
  ]) {
    t.throws(() => parseRedisTarget(bad), RedisUrlError, bad);
  }
});

t.test('a Sentinel URL lists Sentinels and names the primary', async (t) => {
  t.same(parseRedisTarget('redis+sentinel://s1:26379,s2/mymaster'), {
    kind: 'sentinel',
    sentinels: [
      { host: 's1', port: 26379 },
      { host: 's2', port: 26379 },
    ],
    name: 'mymaster',
    db: 0,
    tls: false,
  });
  t.same(parseRedisTarget('redis+sentinel://:pw@s1:5000/main/2'), {
    kind: 'sentinel',
    sentinels: [{ host: 's1', port: 5000 }],
    name: 'main',
    db: 2,
    tls: false,
    password: 'pw',
  });
  t.throws(() => parseRedisTarget('redis+sentinel://s1:26379'), RedisUrlError, 'the primary name is required');
});

t.test('the configuration takes either variable, and refuses two different ones', async (t) => {
  t.equal(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001' }).redisUrl, 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001');
  t.equal(loadConfig({ REDIS_URL: 'redis+cluster://h:1' }).redisUrl, 'redis+cluster://h:1');
  // A supervisor's workers get REDIS_URL from the nodes, beside the nodes.
  t.equal(loadConfig({ REDIS_URL: 'redis+cluster://h:1', REDIS_CLUSTER_NODES: 'h:1' }).redisUrl, 'redis+cluster://h:1');
  t.throws(() => loadConfig({ REDIS_URL: 'redis://h:1', REDIS_CLUSTER_NODES: 'h:2' }), ConfigError);
  t.throws(() => loadConfig({ REDIS_URL: 'redis+cluster://h:x' }), ConfigError);
  t.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'h:x' }), ConfigError);
});
