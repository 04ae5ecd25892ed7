// Requests of the client commands to a running recd: JSON with a bearer token; a connection that
// fails stops the run, a refusal is the caller's to judge.
import { RunStopped } from './run-stopped.js';

export const endpointOf = (url: string, path: string) => new URL(path, url.endsWith('/') ? url : `${url}/`);

export async function send(
  endpoint: URL,
  method: string,
  token: string,
  body?: unknown,
): Promise<{ ok: boolean; status: number; text: string; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new RunStopped(
      `${method} ${endpoint.href}: ${(err as Error).message}${(err as { cause?: Error }).cause ? ` (${(err as { cause: Error }).cause.message})` : ''}`,
    );
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { ok: res.ok, status: res.status, text, body: parsed };
}
