// Chooses the codec of a request (Content-Type) and of its response (Accept).
import type { Codec } from './codec.js';

export class CodecRegistry {
  private readonly byType = new Map<string, Codec>();
  private readonly acceptCache = new Map<string, Codec>();

  constructor(
    readonly fallback: Codec,
    others: Codec[] = [],
  ) {
    for (const codec of [fallback, ...others]) {
      for (const type of codec.mediaTypes) this.byType.set(type, codec);
    }
  }

  // undefined: a media type no codec reads.
  forContentType(header: string): Codec | undefined {
    if (header === '') return this.fallback;
    return this.byType.get(header) ?? this.byType.get(mediaType(header));
  }

  // The first acceptable type we speak, by q-value; anything else gets the default.
  forAccept(header: string): Codec {
    if (header === '') return this.fallback;
    let codec = this.acceptCache.get(header);
    if (codec === undefined) {
      codec = this.fallback;
      const ranked = header
        .split(',')
        .map((part, i) => {
          const q = /;\s*q=([0-9.]+)/.exec(part);
          return { type: mediaType(part), q: q ? Number(q[1]) : 1, i };
        })
        .filter((r) => r.q > 0)
        .sort((a, b) => b.q - a.q || a.i - b.i);
      for (const r of ranked) {
        const hit = this.byType.get(r.type);
        if (hit) {
          codec = hit;
          break;
        }
      }
      if (this.acceptCache.size < 256) this.acceptCache.set(header, codec);
    }
    return codec;
  }
}

function mediaType(header: string): string {
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}
