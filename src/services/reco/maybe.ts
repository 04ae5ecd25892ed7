// Values that are at hand or still being read: warm requests answer in the same tick (pipelining
// clients rely on it), so a step that can answer now must not wrap its value in a promise.
export type Maybe<T> = T | Promise<T>;

const ignore = () => {};

// Whether a value is still being read. The same-tick path that finds it so leaves it to the later
// path, which asks again (sharing the read) and reports its failure; the promise left here must not
// also fail the process as an unhandled rejection.
export function pending<T>(m: Maybe<T>): m is Promise<T> {
  if (!(m instanceof Promise)) return false;
  m.catch(ignore);
  return true;
}
