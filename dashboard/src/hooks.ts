// Loading API answers into components: once (useLoad) or every few seconds while shown (usePoll).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

// deps: reload when they change. pollMs: read again this long after each answer.
export function useLoad<T>(read: () => Promise<T>, deps: unknown[], pollMs?: number): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const readRef = useRef(read);
  readRef.current = read;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      setLoading(true);
      readRef.current().then(
        (v) => {
          if (!live) return;
          setData(v);
          setError(undefined);
          setLoading(false);
          if (pollMs) timer = setTimeout(run, pollMs);
        },
        (err: unknown) => {
          if (!live) return;
          setError(errorText(err));
          setLoading(false);
          if (pollMs) timer = setTimeout(run, pollMs);
        },
      );
    };
    run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [...deps, tick, pollMs]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

// An action a button starts: its error, and whether it runs; run() says whether it succeeded.
export function useAction(): {
  busy: boolean;
  error: string | undefined;
  run: (f: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await f();
      return true;
    } catch (err) {
      setError(errorText(err));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}
