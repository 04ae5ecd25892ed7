// What can be checked of the container files without a container engine (none on the build machine:
// the image is not built by the tests): the Dockerfile's stages, user, health check and environment,
// that everything it copies exists, and that compose.yaml runs recd on a Redis keeping an append-only
// file on a volume. Also that LICENSE and package.json name the same licence.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (name: string) => readFileSync(resolve(root, name), 'utf8');

// The Dockerfile's instructions, continuation lines joined, comments dropped, split into stages.
function stages(text: string): { from: string; lines: string[] }[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const out: { from: string; lines: string[] }[] = [];
  for (const line of lines) {
    if (/^FROM /i.test(line)) out.push({ from: line, lines: [] });
    else out.at(-1)!.lines.push(line);
  }
  return out;
}

t.test('Dockerfile: a build stage and a slim non-root runtime stage with a health check', async (t) => {
  const [build, runtime, ...more] = stages(read('Dockerfile'));
  t.equal(more.length, 0, 'two stages');
  t.match(build!.from, /^FROM node:20-bookworm-slim AS build$/);
  t.match(runtime!.from, /^FROM node:20-bookworm-slim AS runtime$/);
  t.ok(build!.lines.includes('RUN npm run build'), 'the build stage compiles (tsc + AssemblyScript)');
  t.ok(
    runtime!.lines.some((l) => /^RUN npm ci .*--omit=dev/.test(l)),
    'production dependencies only at run time',
  );
  t.ok(runtime!.lines.includes('COPY --from=build /app/dist ./dist'), 'the compiled output from the build stage');
  const users = runtime!.lines.filter((l) => l.startsWith('USER '));
  t.same(users, ['USER node'], 'runs as the unprivileged node user');
  const health = runtime!.lines.find((l) => l.startsWith('HEALTHCHECK '));
  t.match(health, /CMD \["node", "-e", .*\/readyz'/, 'health check by node against /readyz (recd and its Redis answer)');
  const env = runtime!.lines.filter((l) => l.startsWith('ENV ')).join(' ');
  // The same allocator settings as `npm start`.
  const start = JSON.parse(read('package.json')).scripts.start as string;
  for (const m of start.matchAll(/(MALLOC_\w+)=(\S+)/g)) t.match(env, new RegExp(`\\b${m[1]}=${m[2]}\\b`), `${m[1]} as npm start sets it`);
  t.match(env, /\bHOST=0\.0\.0\.0\b/, 'listens on every interface inside the container');
  t.match(
    runtime!.lines.find((l) => l.startsWith('ENTRYPOINT ')),
    /dist\/src\/cli\.js/,
  );
});

t.test('Dockerfile: everything it copies from the context exists, and the build stage has every compiled directory', async (t) => {
  for (const stage of stages(read('Dockerfile'))) {
    for (const line of stage.lines.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const s of sources) t.ok(existsSync(resolve(root, s)), `${s} exists (${line})`);
    }
  }
  const build = stages(read('Dockerfile'))[0]!.lines.join('\n');
  // tsconfig.json has comments: read its include list alone.
  const include = JSON.parse(/"include":\s*(\[[^\]]*\])/.exec(read('tsconfig.json'))![1]!) as string[];
  t.ok(include.length > 0);
  // Copied as itself or within a folder copied whole (packages/client/src in packages/client).
  const copied = [...build.matchAll(/^COPY (\S+) \.\/(\S+)$/gm)].filter((m) => m[1] === m[2]).map((m) => m[1]!);
  for (const dir of include)
    t.ok(
      copied.some((c) => dir === c || dir.startsWith(`${c}/`)),
      `${dir} is copied for tsc`,
    );
  const ignored = read('.dockerignore').split('\n');
  for (const p of ['node_modules', 'dist', 'data', '.git']) t.ok(ignored.includes(p), `${p} stays out of the build context`);
});

t.test('compose.yaml: recd on a Redis with an append-only file on a volume', async (t) => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<
      string,
      {
        command?: string[];
        volumes?: string[];
        environment?: Record<string, string>;
        depends_on?: Record<string, { condition: string }>;
        build?: string;
        init?: boolean;
        healthcheck?: unknown;
      }
    >;
    volumes: Record<string, unknown>;
  };
  const { redis, recd } = compose.services;
  t.ok(redis && recd, 'both services');
  const cmd = redis!.command!;
  t.equal(cmd[cmd.indexOf('--appendonly') + 1], 'yes', 'AOF on');
  t.equal(cmd[cmd.indexOf('--appendfsync') + 1], 'everysec', 'fsync once a second, as redis.conf');
  t.equal(cmd[cmd.indexOf('--set-max-intset-entries') + 1], '32768', 'compact sets of rated items, as redis.conf');
  const volume = redis!.volumes!.find((v) => v.endsWith(':/data'))!;
  t.ok(volume, "Redis's data directory is a volume");
  t.ok(volume.split(':')[0]! in compose.volumes, 'a named volume');
  t.ok(redis!.healthcheck, 'Redis reports when it is ready');
  t.equal(recd!.build, '.', 'recd is built from the Dockerfile');
  t.equal(recd!.environment!.REDIS_URL, 'redis://redis:6379', 'recd uses the Redis service');
  t.equal(recd!.environment!.HOST, '0.0.0.0');
  t.equal(recd!.depends_on!.redis!.condition, 'service_healthy', 'recd starts once Redis answers');
  t.equal(recd!.init, true, 'an init reaps exited processes');
});

t.test('LICENSE is the Apache License 2.0 that package.json names', async (t) => {
  t.equal(JSON.parse(read('package.json')).license, 'Apache-2.0');
  t.match(read('LICENSE'), /^\s*Apache License\s+Version 2\.0, January 2004/);
  t.equal(JSON.parse(read('package-lock.json')).packages[''].license, 'Apache-2.0', 'the lock file agrees');
});
