// The part of autocannon's programmatic API the HTTP benchmark uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      duration?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      timeout?: number;
      // Each request built anew: setupRequest returns what to send (path, method, headers, body).
      requests?: {
        setupRequest?: (req: { path: string; method: string; headers: Record<string, string>; body?: string }) => {
          path: string;
          method: string;
          headers: Record<string, string>;
          body?: string;
        };
      }[];
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      sent: number; // on `requests`: requests written
      p50: number;
      p90: number;
      p99: number;
      p99_9?: number;
    }
    interface Result {
      url: string;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      mismatches: number;
      resets: number;
      non2xx: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      duration: number;
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
