// The client's address for per-address limits (login throttling). X-Forwarded-For is a header any
// client can write, so it counts only when recd runs behind proxies the operator declares
// (RECD_TRUST_PROXY_HOPS): each trusted proxy appends the address it saw, so the client is the
// entry that many places from the right; entries to its left are the client's own claims.
export function clientAddress(socketAddress: string, forwardedFor: string, trustedHops: number): string {
  if (trustedHops > 0 && forwardedFor !== '') {
    const hops = forwardedFor.split(',');
    const entry = hops[Math.max(0, hops.length - trustedHops)]!.trim();
    if (entry !== '') return plain(entry);
  }
  return plain(socketAddress);
}

// IPv4 clients of a dual-stack socket show as ::ffff:a.b.c.d; IPv6 text may come in either case: one
// client, one key. Plain IPv4 (most requests) passes untouched.
function plain(address: string): string {
  if (!address.includes(':')) return address;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address.toLowerCase();
}
