// Imports point one way (STYLE.md): uWS only in src/http, ioredis only in src/store, no layer
// importing one above it, and src/config, src/errors, native-free-kernels self-contained.
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
  return [...src.matchAll(/^\s*(?:import|export)\s[^'"]*from\s+['"]([^'"]+)['"]/gm), ...src.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
}

// Folder of a project import, e.g. 'src/store'; undefined for packages.
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const rel = relative(root, resolve(root, dirname(file), spec));
  return rel.split('/').slice(0, rel.startsWith('src/') ? 2 : 1).join('/');
}

const layerOf = (file: string) => file.split('/').slice(0, 2).join('/');
// Which project folders each layer may import (besides itself).
const ALLOWED: Record<string, string[]> = {
  'src/config': [],
  'src/errors': [],
  'src/codecs': ['src/errors'],
  'src/schemas': ['src/config'],
  'src/store': ['src/errors', 'src/config'],
  'src/engine': ['src/store', 'src/errors', 'src/config', 'native-free-kernels'],
  'src/services': ['src/store', 'src/engine', 'src/errors', 'src/config', 'src/schemas', 'src/http'], // http/types only, checked below
  'src/routes': ['src/services', 'src/schemas', 'src/config', 'src/errors', 'src/http'], // http/types only
  'src/http': ['src/codecs', 'src/errors', 'src/schemas'],
};
const ENTRY = new Set(['src/main.ts', 'src/cli.ts']);

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
      if (to === 'src/http' && layer !== 'src/http') t.match(spec, /\/http\/types\.js$/, `${f} takes only shared types from src/http`);
    }
  }
});

t.test('native-free-kernels import nothing from the project', async (t) => {
  for (const f of files('native-free-kernels')) for (const spec of imports(f)) t.notOk(spec.includes('/src/'), `${f} imports ${spec}`);
});
