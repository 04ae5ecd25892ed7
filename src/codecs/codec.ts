// A body codec: how one media type turns bytes into values and back.
export interface Codec {
  // The media type written in responses, then any aliases accepted in requests.
  readonly mediaTypes: readonly string[];
  decode(bytes: Uint8Array): unknown;
  encode(value: unknown): Uint8Array | string;
  // Whether responses in this codec may be compressed (pickle clients choke on compressed streams).
  readonly compressible: boolean;
}

// Thrown by decoders for input they cannot read; the HTTP layer maps it to WrongData.
export class DecodeError extends Error {
  override name = 'DecodeError';
}
