// Decoder limits: every size a pickle claims is checked against these before anything is allocated.
import { DecodeError, MAX_BODY_DEPTH } from '../codec.js';

export interface PickleLimits {
  // MARK nesting, and nesting depth of the decoded value (containers, structured dtypes). Default: the
  // depth every codec allows (MAX_BODY_DEPTH).
  maxDepth: number;
  // Values on the unpickler stack (all mark levels together).
  maxStack: number;
  // Memo entries.
  maxMemo: number;
  // Bytes of one str/bytes value.
  maxStringBytes: number;
  // Bytes of one integer (LONG4) or digits of a text integer.
  maxIntBytes: number;
  // Total bytes of all numpy arrays. Default: the input length (an array cannot hold more than the input).
  maxArrayBytes: number;
  // Total values in the decoded result counted as a tree (shared references count each time), array elements
  // included. Default: 4 values per input byte (at least 4096).
  maxElements: number;
}

export function resolveLimits(inputLength: number, limits: Partial<PickleLimits> = {}): PickleLimits {
  return {
    maxDepth: MAX_BODY_DEPTH,
    maxStack: 1 << 18,
    maxMemo: 1 << 20,
    maxStringBytes: 64 << 20,
    maxIntBytes: 2048,
    maxArrayBytes: inputLength,
    maxElements: Math.max(4096, 4 * inputLength),
    ...limits,
  };
}

// Running totals across one decode.
export class Budget {
  private arrayBytes = 0;
  private copied = 0;
  constructor(readonly limits: PickleLimits) {}

  chargeArray(bytes: number): void {
    this.arrayBytes += bytes;
    if (this.arrayBytes > this.limits.maxArrayBytes) throw new DecodeError('pickle: numpy arrays exceed the size limit');
  }

  // Values or bytes the decoder creates beyond what the input spells out (copies, decoded array cells).
  chargeCopy(n: number): void {
    this.copied += n;
    if (this.copied > this.limits.maxElements) throw new DecodeError('pickle: decoded value exceeds the size limit');
  }
}
