// One read per key under way, shared by every caller that asks meanwhile: a burst of requests (at
// start-up, after a change, for a model being announced) reads Redis once, not once each.
export class SharedReads<T> {
  private readonly under = new Map<string, Promise<T>>();

  // The read of `key` under way, else read() started now and shared until it settles.
  get(key: string, read: () => Promise<T>): Promise<T> {
    const held = this.under.get(key);
    if (held !== undefined) return held;
    const p = read();
    this.under.set(key, p);
    // Only this read's entry: after forget(), a newer read may hold the key.
    const done = (): void => {
      if (this.under.get(key) === p) this.under.delete(key);
    };
    p.then(done, done);
    return p;
  }

  // What `key` reads changed: callers from now on start a read of their own.
  forget(key: string): void {
    this.under.delete(key);
  }
}
