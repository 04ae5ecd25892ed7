// A process's resident memory from /proc/<pid>/status: now (VmRSS) and its peak so far (VmHWM).
import { readFile } from 'node:fs/promises';

export interface Rss {
  rssBytes: number;
  peakBytes: number;
}

// undefined when the process is gone or /proc is not there (not Linux).
export async function rssOf(pid: number | undefined): Promise<Rss | undefined> {
  if (pid === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rssBytes: kb('VmRSS'), peakBytes: kb('VmHWM') };
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MiB`;

// "812 MiB (peak so far 1,030 MiB)", or a note that the process could not be read.
export const rssLine = (r: Rss | undefined) => (r ? `${mib(r.rssBytes)} (peak so far ${mib(r.peakBytes)})` : 'not readable');
