// Numbers written in text (query strings, filter strings): decimal notation only.
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// `0x10`, `Infinity` or an empty string are not numbers here.
export function parseDecimal(s: string): number | undefined {
  return DECIMAL.test(s) ? Number(s) : undefined;
}
