// The client address that per-address login throttling counts (src/http/client-address.ts).
import t from 'tap';
import { clientAddress } from '../../src/http/client-address.js';

t.test('without trusted proxies the socket address counts and X-Forwarded-For is ignored', async (t) => {
  t.equal(clientAddress('10.0.0.7', '', 0), '10.0.0.7');
  t.equal(clientAddress('10.0.0.7', '1.2.3.4', 0), '10.0.0.7', 'a client cannot pick its address');
});

t.test('behind trusted proxies the entry they appended counts, not what the client wrote before it', async (t) => {
  t.equal(clientAddress('10.0.0.1', '1.2.3.4', 1), '1.2.3.4');
  t.equal(clientAddress('10.0.0.1', '9.9.9.9, 1.2.3.4', 1), '1.2.3.4', 'one proxy: the last entry');
  t.equal(clientAddress('10.0.0.1', '9.9.9.9, 1.2.3.4, 10.0.0.2', 2), '1.2.3.4', 'two proxies: the second from the right');
  t.equal(clientAddress('10.0.0.1', '1.2.3.4', 3), '1.2.3.4', 'fewer entries than proxies: the leftmost');
  t.equal(clientAddress('10.0.0.1', '', 1), '10.0.0.1', 'no header: the socket address');
  t.equal(clientAddress('10.0.0.1', ' , ', 1), '10.0.0.1', 'an empty entry: the socket address');
});

t.test('one client, one key', async (t) => {
  t.equal(clientAddress('::ffff:127.0.0.1', '', 0), '127.0.0.1', 'IPv4 on a dual-stack socket');
  t.equal(clientAddress('2001:DB8::1', '', 0), '2001:db8::1', 'IPv6 in lower case');
});
