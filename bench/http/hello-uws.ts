// The same-run baseline of the HTTP benchmark: a bare uWebSockets.js hello-world on 127.0.0.1.
// Usage: node dist/bench/http/hello-uws.js PORT   (0 picks a free port). Prints the port when ready.
// With BENCH_FLOOR_REDIS_URL it also serves `POST /floor`: a body read, then the answer once one
// Redis script call made per event-loop turn for every request of that turn returns. That is the
// least any stored write can cost here, so its ratio bounds what a real write endpoint can reach.
import uWS from 'uWebSockets.js';
import { Redis } from 'ioredis';

const port = Number(process.argv[2] ?? '0');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`hello-uws: bad port ${JSON.stringify(process.argv[2])}\n`);
  process.exit(2);
}

const app = uWS.App().get('/*', (res) => {
  res.end('"hello"');
});

const floorRedis = process.env.BENCH_FLOOR_REDIS_URL;
if (floorRedis) {
  const redis = new Redis(floorRedis, { enableAutoPipelining: true });
  let waiting: (() => void)[] = [];
  app.post('/floor', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((_chunk, last) => {
      if (!last) return;
      waiting.push(() => {
        if (!aborted) res.cork(() => res.writeHeader('content-type', 'application/json').end('{"warnings":[]}'));
      });
      if (waiting.length > 1) return;
      setImmediate(() => {
        const batch = waiting;
        waiting = [];
        redis.eval('return 1', 0).then(
          () => batch.forEach((answer) => answer()),
          () => batch.forEach((answer) => answer()),
        );
      });
    });
  });
}

app.listen('127.0.0.1', port, (socket) => {
  if (!socket) {
    process.stderr.write(`hello-uws: cannot listen on 127.0.0.1:${port}\n`);
    process.exit(1);
  }
  process.stdout.write(`${uWS.us_socket_local_port(socket)}\n`);
});

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
