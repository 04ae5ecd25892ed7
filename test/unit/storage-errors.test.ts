// Which Redis failures recd answers with 503 ServerUnavailable (classifyStorageError): what a failover
// or an outage brings, while any other error stays a 500.
import t from 'tap';
import { classifyStorageError } from '../../src/store/redis.js';

const nameOf = (message: string) => classifyStorageError(new Error(message))?.data.name;

t.test('a failover on a cluster or behind a Sentinel: 503', async (t) => {
  for (const message of [
    'MOVED 10975 127.0.0.1:37289', // a slot's commands batched with others', after its primary changed
    'ASK 10975 127.0.0.1:37289',
    'CLUSTERDOWN The cluster is down',
    'TRYAGAIN Multiple keys request during rehashing of slot',
    'Cluster: no connection to the primary of slot 10975 (127.0.0.1:37001)',
    'Connection is closed.',
    'connect ECONNREFUSED 127.0.0.1:37001',
    'NOREPLICAS Not enough good replicas to write.',
    // ioredis's own, for the commands of a pipeline or transaction whose connection closed after
    // answering part of it: they cannot be resent in order.
    'Command aborted due to connection close',
  ]) {
    t.equal(nameOf(message), 'STORAGE_UNAVAILABLE', message);
  }
  t.equal(nameOf("READONLY You can't write against a read only replica."), 'WRITING_ON_READONLY_MODE');
});

t.test('a full Redis (maxmemory under noeviction): 503, from a command, a script or a transaction', async (t) => {
  const full = (err: Error) => {
    const api = classifyStorageError(err);
    return [api?.status, api?.data.name, api?.data.error];
  };
  const expected = [503, 'STORAGE_UNAVAILABLE', 'storage full'];
  // As Redis 7.0 words them (SET, EVAL, FCALL), and Redis 6's wrapping of a script's error.
  for (const message of [
    "OOM command not allowed when used memory > 'maxmemory'.",
    "OOM command not allowed when used memory > 'maxmemory'. script: bd6f3018b28bbdb36260f19d3c44afed740db987, on @user_script:1.",
    "ERR Error running script (call to f_bd6f…): @user_script:1: @user_script: 1: -OOM command not allowed when used memory > 'maxmemory'.",
  ]) {
    t.same(full(new Error(message)), expected, message);
  }
  // ioredis's EXECABORT carries the queued commands' errors.
  const aborted = Object.assign(new Error('EXECABORT Transaction discarded because of previous errors.'), {
    previousErrors: [new Error("OOM command not allowed when used memory > 'maxmemory'.")],
  });
  t.same(full(aborted), expected, 'EXECABORT of a queued OOM');
  t.equal(
    classifyStorageError(new Error('EXECABORT Transaction discarded because of previous errors.')),
    undefined,
    'EXECABORT for another reason: a bug',
  );
});

t.test('other errors are not an outage', async (t) => {
  t.equal(nameOf('ERR wrong number of arguments'), undefined);
  t.equal(nameOf('WRONGTYPE Operation against a key holding the wrong kind of value'), undefined);
  t.equal(classifyStorageError('MOVED 1 x:1'), undefined, 'not an Error');
});
