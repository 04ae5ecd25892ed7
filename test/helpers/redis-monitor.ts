// The commands a redis-server executes, from MONITOR on a socket of our own. Not ioredis' monitor():
// it switches its connection to monitoring mode a tick after MONITOR's +OK, so a command line that
// arrives in the same chunk as the +OK is taken for a reply to nothing ("Command queue state error").
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { nodeOf, type Connection } from '../../src/store/redis.js';

export interface Monitor {
  // Resolves once every command Redis executed before `echo`'s ECHO of a marker has been handed to onCommand:
  // MONITOR lines trail the replies, in the order Redis executed the commands.
  caughtUp(echo: (marker: string) => Promise<unknown>): Promise<void>;
  close(): void;
}

// `onCommand` gets each executed command's arguments, the command name first, as Redis quoted them
// unescaped. Resolves once Redis has acknowledged MONITOR, so every command after it is seen.
export function monitorRedis(url: string, onCommand: (args: string[]) => void): Promise<Monitor> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  return new Promise((resolve, reject) => {
    let pending = '';
    let acknowledged = false;
    const markers = new Map<string, () => void>();
    const monitor: Monitor = {
      caughtUp: (echo) => {
        const marker = `monitor-caught-up-${randomUUID()}`;
        const seen = new Promise<void>((done) => markers.set(marker, done));
        return echo(marker).then(() => seen);
      },
      close: () => socket.destroy(),
    };
    socket.setEncoding('utf8');
    socket.once('error', reject);
    socket.on('connect', () => socket.write('MONITOR\r\n'));
    socket.on('data', (chunk: string) => {
      pending += chunk;
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (!acknowledged) {
          if (line !== '+OK') return reject(new Error(`MONITOR answered ${line}`));
          acknowledged = true;
          resolve(monitor);
        } else if (line.startsWith('+')) {
          const args = quotedArgs(line);
          const marker = args[0]?.toLowerCase() === 'echo' ? markers.get(args[1] ?? '') : undefined;
          if (marker) marker();
          else onCommand(args);
        }
      }
    });
  });
}

// MONITOR on the server holding `key`: on a cluster, the primary of its slot, where every command of
// the database (or organisation) the key's hash tag names is executed; on one server, that server.
// caughtUp() sends its marker there too.
export async function monitorServerOf(
  redis: Connection,
  key: string,
  onCommand: (args: string[]) => void,
): Promise<{ caughtUp(): Promise<void>; close(): void }> {
  const server = await nodeOf(redis, key);
  const monitor = await monitorRedis(`redis://${server.options.host}:${server.options.port}`, onCommand);
  return { caughtUp: () => monitor.caughtUp((marker) => server.echo(marker)), close: () => monitor.close() };
}

// `+1795712681.229556 [0 127.0.0.1:60850] "zrangebyscore" "training:queue" …` → its quoted words,
// with Redis' escapes (\" \\ \n \r \t \xHH) undone.
export function quotedArgs(line: string): string[] {
  const args: string[] = [];
  const quoted = /"((?:[^"\\]|\\.)*)"/g;
  for (let m = quoted.exec(line); m; m = quoted.exec(line)) {
    args.push(
      m[1]!.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_all, e: string) =>
        e.length === 3
          ? String.fromCharCode(parseInt(e.slice(1), 16))
          : (({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e),
      ),
    );
  }
  return args;
}
