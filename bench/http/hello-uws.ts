// The same-run baseline of the HTTP benchmark: a bare uWebSockets.js hello-world on 127.0.0.1.
// Usage: node dist/bench/http/hello-uws.js PORT   (0 picks a free port). Prints the port when ready.
import uWS from 'uWebSockets.js';

const port = Number(process.argv[2] ?? '0');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`hello-uws: bad port ${JSON.stringify(process.argv[2])}\n`);
  process.exit(2);
}

const app = uWS.App().get('/*', (res) => {
  res.end('"hello"');
});

app.listen('127.0.0.1', port, (socket) => {
  if (!socket) {
    process.stderr.write(`hello-uws: cannot listen on 127.0.0.1:${port}\n`);
    process.exit(1);
  }
  process.stdout.write(`${uWS.us_socket_local_port(socket)}\n`);
});

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
