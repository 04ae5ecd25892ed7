// The deep merge of metadata PATCHes (organisations, databases), in the manner of RFC 7396 as the
// hosted service's Python client expects: objects merge key by key, null deletes a key, any other
// value replaces; with `preserve`, an array patched onto an array is appended instead.
// Inputs are parsed JSON and are never modified: the result is built anew.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Own data property even for a key named `__proto__` (JSON.parse makes it one; assignment would
// set the prototype instead).
function set(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

export function mergePatch(target: unknown, patch: unknown, preserve = false): unknown {
  if (preserve && Array.isArray(target) && Array.isArray(patch)) return [...target, ...patch];
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = {};
  if (isObject(target)) for (const [k, v] of Object.entries(target)) set(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else set(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, v, preserve));
  }
  return out;
}
