// Imports point one way (STYLE.md): uWS only in src/http, ioredis only in src/store, no layer
// importing one above it, src/contract, src/config, src/errors and native-free-kernels self-contained,
// only the composition root (src/main.ts and its src/wiring/) importing every layer, and no import
// cycle between the files of src/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) out.push(...files(rel));
    else if (name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

function imports(file: string): string[] {
  const src = readFileSync(join(root, file), 'utf8');
  return [
    ...src.matchAll(/^\s*(?:import|export)\s[^'"]*from\s+['"]([^'"]+)['"]/gm),
    ...src.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
}

// Folder of a project import, e.g. 'src/store'; undefined for packages.
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const rel = relative(root, resolve(root, dirname(file), spec));
  return rel
    .split('/')
    .slice(0, rel.startsWith('src/') ? 2 : 1)
    .join('/');
}

const layerOf = (file: string) => file.split('/').slice(0, 2).join('/');
// Which project folders each layer may import (besides itself).
const ALLOWED: Record<string, string[]> = {
  'src/contract': [],
  'src/config': [],
  'src/errors': [],
  // The command line's client commands (import): they talk to a recd over HTTP only. The capacity
  // planner (plan-model.ts) sizes a model with the model layout's own arithmetic.
  'src/cli': ['src/engine'],
  'src/metrics': [], // prom-client and the process's metrics, fed through hooks by the wiring
  'src/codecs': ['src/errors', 'src/contract'],
  'src/schemas': ['src/config', 'src/contract'],
  'src/store': ['src/errors', 'src/config'],
  'src/engine': ['src/store', 'src/errors', 'src/config', 'native-free-kernels'],
  'src/services': ['src/store', 'src/engine', 'src/errors', 'src/config', 'src/schemas', 'src/contract'],
  'src/routes': ['src/services', 'src/schemas', 'src/config', 'src/errors', 'src/contract'],
  'src/http': ['src/codecs', 'src/errors', 'src/schemas', 'src/contract'],
  // The composition root's wiring, one file per layer: the one place besides ENTRY that sees them all.
  'src/wiring': [
    'src/contract',
    'src/config',
    'src/errors',
    'src/codecs',
    'src/schemas',
    'src/store',
    'src/engine',
    'src/services',
    'src/routes',
    'src/http',
    'src/metrics',
  ],
};
// The entry points: the command line, the composition root and the supervisor of several serving processes.
const ENTRY = new Set(['src/main.ts', 'src/cli.ts', 'src/supervisor.ts']);
const ROOT = 'src/wiring';

const srcFiles = files('src');

t.test('uWebSockets.js is imported only by src/http', async (t) => {
  for (const f of srcFiles) if (imports(f).includes('uWebSockets.js')) t.match(f, /^src\/http\//, f);
});

t.test('ioredis is imported only by src/store', async (t) => {
  for (const f of srcFiles) if (imports(f).includes('ioredis')) t.match(f, /^src\/store\//, f);
});

t.test('each layer imports only the layers below it', async (t) => {
  for (const f of srcFiles) {
    if (ENTRY.has(f)) continue;
    const layer = layerOf(f);
    const allowed = ALLOWED[layer];
    t.ok(allowed, `${layer} is a known layer`);
    for (const spec of imports(f)) {
      const to = target(f, spec);
      if (to === undefined || to === layer) continue;
      t.ok(allowed!.includes(to), `${f} imports ${spec}`);
    }
  }
});

t.test('only the entry points import the wiring', async (t) => {
  for (const f of srcFiles) {
    if (ENTRY.has(f) || layerOf(f) === ROOT) continue;
    for (const spec of imports(f)) t.not(target(f, spec), ROOT, `${f} imports ${spec}`);
  }
});

t.test('native-free-kernels import nothing from the project', async (t) => {
  for (const f of files('native-free-kernels')) for (const spec of imports(f)) t.notOk(spec.includes('/src/'), `${f} imports ${spec}`);
});

// Every project file a file imports (type-only imports too: a cycle of types still tangles the reading).
function edges(file: string): string[] {
  return imports(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts'));
}

// The first import cycle found among `nodes` (as a list of files, first repeated last), if any.
function findCycle(nodes: string[], next: (file: string) => string[]): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string[] | undefined => {
    if (state.get(f) === 'done') return undefined;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const g of next(f)) {
      const found = visit(g);
      if (found) return found;
    }
    path.pop();
    state.set(f, 'done');
    return undefined;
  };
  for (const f of nodes) {
    const found = visit(f);
    if (found) return found;
  }
  return undefined;
}

t.test('the cycle finder finds a cycle and passes a tree', async (t) => {
  const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
  t.same(
    findCycle(['d'], (f) => graph[f] ?? []),
    ['a', 'b', 'c', 'a'],
  );
  t.equal(
    findCycle(['a', 'b'], (f) => (({ a: ['b'], b: [] }) as Record<string, string[]>)[f] ?? []),
    undefined,
  );
});

t.test('no import cycle in src/', async (t) => {
  const inSrc = new Set(srcFiles);
  const cycle = findCycle(srcFiles, (f) => edges(f).filter((g) => inSrc.has(g)));
  t.equal(cycle?.join(' -> '), undefined, 'an import cycle');
});
