// What packages/client/src/schema.ts and public-operations.ts hold: the OpenAPI document recd serves,
// built in-process from the route table (no server, no Redis), turned into TypeScript types by
// openapi-typescript. Shared by scripts/client-schema.ts and the test that finds a stale copy.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Route } from '../src/contract/routes.js';
import type { Services } from '../src/routes/index.js';
import { routeTable } from '../src/wiring/http.js';

type Json = Record<string, any>;

// The compiled file lives in dist/scripts/; the package in packages/client/ of the repository.
export const CLIENT_SRC = fileURLToPath(new URL('../../packages/client/src/', import.meta.url));

// The table's rows only: building them calls no service, and no handler but the document's runs.
const noServices = new Proxy({} as Services, {
  get: (_, service) =>
    new Proxy(
      {},
      {
        get: (_, method) => () => {
          throw new Error(`${String(service)}.${String(method)}: no services while describing the route table`);
        },
      },
    ),
});

export function servedDocument(): Json {
  const self = routeTable(noServices).find((r: Route) => r.method === 'GET' && r.path === 'openapi.json');
  if (!self) throw new Error('the route table has no openapi.json route');
  // A deep copy: the served document is frozen, and openapi-typescript's bundler writes into its input.
  return JSON.parse(JSON.stringify(self.handler(undefined as never))) as Json;
}

interface OpenApiTypescript {
  default(schema: Json, options?: Json): Promise<unknown>;
  astToString(nodes: unknown): string;
}

// openapi-typescript needs TypeScript 5's compiler API: it and its TypeScript are installed under
// packages/client/node_modules, out of reach of a plain import from dist/scripts/. Its ESM entry,
// found from the client package.
async function openapiTypescript(): Promise<OpenApiTypescript> {
  const require = createRequire(new URL('../../packages/client/package.json', import.meta.url));
  const main = require.resolve('openapi-typescript/package.json');
  const pkg = require(main) as { exports: { '.': { import: string } } };
  return (await import(new URL(pkg.exports['.'].import, pathToFileURL(main)).href)) as OpenApiTypescript;
}

const HEADER = (what: string) =>
  `// ${what}\n// Generated from the OpenAPI document recd serves (GET /v1/openapi.json) by \`npm run client:schema\`; do not edit.\n`;

// The operations that take no token (login, password reset, the root, the description): the client
// sends its token and renews it for every other one. The types do not say which these are.
function publicOperations(doc: Json): string {
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) if (!(op as Json).security) ops.push(`${method.toUpperCase()} ${path}`);
  }
  const lines = ops.sort().map((o) => `  '${o}',`);
  return `${HEADER('The operations that need no token.')}export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([\n${lines.join('\n')}\n]);\n`;
}

export async function clientSources(doc: Json = servedDocument()): Promise<Record<string, string>> {
  const ot = await openapiTypescript();
  const types = ot.astToString(await ot.default(doc));
  return {
    'schema.ts': `${HEADER('The types of every path, operation and schema of the recd API.')}${types}`,
    'public-operations.ts': publicOperations(doc),
  };
}
