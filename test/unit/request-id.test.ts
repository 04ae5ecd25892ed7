// Request ids made by recd: unique within a process and across processes (and so across restarts).
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { acceptedRequestId, newRequestId } from '../../src/http/request-id.js';

const moduleUrl = pathToFileURL(resolve(dirname(fileURLToPath(import.meta.url)), '../../src/http/request-id.js')).href;

t.test('unique within a process', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) seen.add(newRequestId());
  t.equal(seen.size, 10_000);
});

t.test('two processes start from different prefixes', async (t) => {
  const first = () =>
    execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `import { newRequestId } from ${JSON.stringify(moduleUrl)}; console.log(newRequestId());`,
    ])
      .toString()
      .trim();
  const a = first();
  const b = first();
  t.match(a, /-1$/);
  t.not(a, b);
});

t.test('an incoming id is kept only when it is 1-128 visible ASCII characters', async (t) => {
  t.equal(acceptedRequestId('a'), 'a');
  t.equal(acceptedRequestId('~'.repeat(128)), '~'.repeat(128));
  for (const bad of ['', '~'.repeat(129), 'a b', 'a\u007f', 'caf\u00e9', 'a\u0000'])
    t.not(acceptedRequestId(bad), bad, JSON.stringify(bad));
});
