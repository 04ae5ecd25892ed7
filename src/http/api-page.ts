// The human-readable API page at GET {base_url}/docs/: swagger-ui-dist's files from node_modules,
// read once at start-up and served by recd itself (no CDN), pointed at {base_url}/openapi.json.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors/api-error.js';
import { RawReply, publicRoute, type Route } from '../contract/routes.js';
import { API_PREFIX } from './router.js';

// The files index.html loads; anything else under docs/ is a 404.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

// Replaces the package's initializer (which points at the petstore): ours names our document.
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(`${API_PREFIX}/openapi.json`)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

export function apiPageRoutes(): Route[] {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, RawReply>();
  for (const [name, type] of Object.entries(ASSETS)) files.set(name, new RawReply(type, readFileSync(join(dir, name))));
  files.set('swagger-initializer.js', new RawReply('text/javascript; charset=utf-8', INITIALIZER));
  // index.html names its files by relative paths, which break at docs without its slash (the router
  // serves both): they are made absolute, as the document's URL is.
  const html = readFileSync(join(dir, 'index.html'), 'utf8').replace(/(href|src)="(?:\.\/)?([\w.-]+)"/g, `$1="${API_PREFIX}/docs/$2"`);
  const index = new RawReply('text/html; charset=utf-8', html);
  return [
    publicRoute({
      method: 'GET',
      path: 'docs/',
      summary: 'the API page (Swagger UI) over openapi.json',
      response: Type.String(),
      media: 'text/html',
      handler: () => index,
    }),
    publicRoute({
      method: 'GET',
      path: 'docs/<file>/',
      summary: 'a file of the API page',
      response: Type.String({ description: 'a style sheet, script or image' }),
      media: '*/*',
      params: Type.Object({ file: Type.String({ maxLength: 100 }) }),
      handler: ({ params }) => files.get(params.file) ?? throwNotFound(params.file),
    }),
  ];
}

function throwNotFound(file: string): never {
  throw notFound('RESOURCE_NOT_FOUND', 'path', file, `no file ${file} in the API page`);
}
