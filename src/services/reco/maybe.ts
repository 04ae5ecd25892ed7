// Values that are at hand or still being read: warm requests answer in the same tick (pipelining
// clients rely on it), so a step that can answer now must not wrap its value in a promise.
export type Maybe<T> = T | Promise<T>;

// f applied to x: at once when x is at hand, once it resolves otherwise.
export function then<T, U>(x: Maybe<T>, f: (v: T) => Maybe<U>): Maybe<U> {
  return x instanceof Promise ? x.then(f) : f(x);
}
