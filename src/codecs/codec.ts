// A body codec: how one media type turns bytes into values and back.
export interface Codec {
  // The media type written in responses, then any aliases accepted in requests.
  readonly mediaTypes: readonly string[];
  // columnar: top-level body fields the route reads as columnar bodies (see contract/columnar.ts Rows) when the
  // codec carries them as such (pickled numpy structured arrays); other codecs ignore it.
  decode(bytes: Uint8Array, columnar?: readonly string[]): unknown;
  encode(value: unknown): Uint8Array | string;
  // Whether responses in this codec may be compressed (pickle clients choke on compressed streams).
  readonly compressible: boolean;
}

// Thrown by decoders for input they cannot read; the HTTP layer maps it to WrongData.
export class DecodeError extends Error {
  override name = 'DecodeError';
}

// Nesting of a request body, the body itself being level 1: any codec refuses deeper input, checked
// without recursion so that no depth of input can overflow the stack. Free-form values (metadata,
// interaction properties) are stored msgpack-encoded, whose encoder refuses more than 100 levels,
// and handlers may walk values recursively: 32 levels leave both far behind while no request shape
// needs more than a handful.
export const MAX_BODY_DEPTH = 32;

export const tooDeep = (what: string) => new DecodeError(`${what} nested deeper than ${MAX_BODY_DEPTH} levels`);

// No codec accepts an object key named `__proto__`: the msgpack decoder refuses one (and so would
// fail to read back any stored value holding it), and code that copies keys one by one would set a
// prototype with it.
export const protoKey = () => new DecodeError('an object key named "__proto__" is not accepted');
