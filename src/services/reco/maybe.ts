// Values that are at hand or still being read: warm requests answer in the same tick (pipelining
// clients rely on it), so a step that can answer now must not wrap its value in a promise.
export type Maybe<T> = T | Promise<T>;

// f(x, state): at once when x is at hand, once it resolves otherwise. Hot endpoints pass a named
// step and the request's state rather than a closure, so a warm request allocates none.
export function then<T, U, S = undefined>(x: Maybe<T>, f: (v: T, state: S) => Maybe<U>, state?: S): Maybe<U> {
  return x instanceof Promise ? x.then((v) => f(v, state as S)) : f(x, state as S);
}
