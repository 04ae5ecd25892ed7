// A handler's result as an Outcome in the negotiated codec. Frozen values (answers many requests
// share, such as cached pages) are encoded once per codec and kept as bytes.
import type { Codec } from '../codecs/codec.js';
import { RawReply, Reply, type HandlerResult } from '../contract/routes.js';
import type { Outcome } from './exchange.js';

export class AnswerEncoder {
  private readonly encoded = new Map<Codec, WeakMap<object, Uint8Array | string>>();

  encode(result: HandlerResult, codec: Codec): Outcome {
    if (result === undefined) return { status: 204, contentType: undefined, headers: undefined, body: '' };
    if (result instanceof RawReply) return { status: 200, contentType: result.contentType, headers: result.headers, body: result.body };
    if (result instanceof Reply) {
      if (result.body === undefined && result.status === 204)
        return { status: 204, contentType: undefined, headers: result.headers, body: '' };
      // Every other status carries a body (pickle clients fail on an empty one): null when the handler gave none.
      return {
        status: result.status,
        contentType: codec.mediaTypes[0]!,
        headers: result.headers,
        body: this.encodeValue(result.body ?? null, codec),
      };
    }
    return { status: 200, contentType: codec.mediaTypes[0]!, headers: undefined, body: this.encodeValue(result, codec) };
  }

  private encodeValue(value: unknown, codec: Codec): Uint8Array | string {
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return codec.encode(value);
    let cache = this.encoded.get(codec);
    if (!cache) this.encoded.set(codec, (cache = new WeakMap()));
    let bytes = cache.get(value);
    if (bytes === undefined) {
      // Kept as bytes: the socket then takes them as they are, with no text conversion per answer.
      const encoded = codec.encode(value);
      cache.set(value, (bytes = typeof encoded === 'string' ? Buffer.from(encoded) : encoded));
    }
    return bytes;
  }
}
