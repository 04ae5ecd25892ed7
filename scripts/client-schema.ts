// Writes the typed client's generated files (packages/client/src/schema.ts, public-operations.ts)
// from the route table. Usage: npm run client:schema [-- --check]; --check writes nothing and fails
// when a committed file differs from what the route table gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_SRC, clientSources } from './client-schema-source.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const [name, text] of Object.entries(await clientSources())) {
  const path = join(CLIENT_SRC, name);
  let old: string | undefined;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    old = undefined;
  }
  if (old === text) continue;
  if (check) {
    stale++;
    console.error(`stale: packages/client/src/${name} (run npm run client:schema)`);
  } else {
    writeFileSync(path, text);
    console.log(`wrote packages/client/src/${name}`);
  }
}
process.exit(stale > 0 ? 1 : 0);
