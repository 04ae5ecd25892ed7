// Identifier types: names accepted at database creation and the values each accepts.
import t from 'tap';
import type { Claims } from '../../src/contract/claims.js';
import { idType, parseIdBytes } from '../../src/services/ids/id-types.js';
import { parseId } from '../../src/services/ids/request-ids.js';

t.test('type names', async (t) => {
  for (const ok of ['uint32', 'uint64', 'uuid', 'urlsafe', 'hex2', 'hex10', 'hex24', 'hex64', 'bytes1', 'bytes16', 'bytes48'])
    t.ok(idType(ok), ok);
  for (const bad of ['', 'int', 'uint16', 'hex', 'hex7', 'hex66', 'hex0', 'bytes0', 'bytes49', 'bytes', 'UUID', 'str'])
    t.notOk(idType(bad), bad);
});

t.test('uint32 and uint64', async (t) => {
  const u32 = idType('uint32')!;
  t.equal(u32.parse(0), 0);
  t.equal(u32.parse('4294967295'), 4294967295);
  for (const bad of [-1, 1.5, 4294967296, '4294967296', '01', '', 'x', null, true]) t.equal(u32.parse(bad), undefined, String(bad));
  const u64 = idType('uint64')!;
  t.equal(u64.parse('18446744073709551615'), '18446744073709551615', 'kept as a decimal string beyond 2^53');
  t.equal(u64.parse('18446744073709551616'), undefined);
  t.equal(u64.parse(2 ** 53 - 1), 2 ** 53 - 1);
  t.equal(u64.parse(2 ** 53), undefined, 'numbers beyond 2^53 lose precision: send strings');
});

t.test('uuid, hexN, bytesN, urlsafe', async (t) => {
  const uuid = idType('uuid')!;
  t.equal(uuid.parse('123E4567-E89B-12D3-A456-426614174000'), '123e4567-e89b-12d3-a456-426614174000');
  t.equal(uuid.parse('123e4567e89b12d3a456426614174000'), undefined);
  const hex = idType('hex10')!;
  t.equal(hex.parse('ABCDEF0123'), 'abcdef0123');
  t.equal(hex.parse('abcdef012'), undefined);
  t.equal(hex.parse('abcdef012g'), undefined);
  const bytes = idType('bytes3')!;
  t.equal(bytes.parse(Buffer.from([1, 2, 3]).toString('base64url')), 'AQID');
  t.equal(bytes.parse('AQI'), undefined);
  t.equal(bytes.parse('AQ+D'), undefined);
  const urlsafe = idType('urlsafe')!;
  t.equal(urlsafe.parse('a-b_C9'), 'a-b_C9');
  t.equal(urlsafe.parse('a b'), undefined);
  t.equal(urlsafe.parse('x'.repeat(65)), undefined);
});

t.test('pickle clients send ids as bytes: raw for bytesN (NUL-padded back), ASCII text otherwise', async (t) => {
  const raw = Uint8Array.from([0xfb, 0xff, 0x00, 0x01, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c]);
  t.equal(parseIdBytes(idType('bytes16')!, raw), Buffer.from(raw).toString('base64url'));
  const padded = Uint8Array.from([1, 2, 3, 0, 0, 0]);
  t.equal(
    parseIdBytes(idType('bytes6')!, padded.subarray(0, 3)),
    Buffer.from(padded).toString('base64url'),
    'S<n> strips trailing NULs; they come back',
  );
  t.equal(parseIdBytes(idType('bytes4')!, raw), undefined, 'longer than N');
  t.equal(parseIdBytes(idType('uuid')!, Buffer.from('0F8FAD5B-D9CB-469F-A165-70867728950E')), '0f8fad5b-d9cb-469f-a165-70867728950e');
  t.equal(parseIdBytes(idType('uint32')!, Buffer.from('42')), 42);
  t.equal(parseIdBytes(idType('hex8')!, Uint8Array.from([0xff, 0x41])), undefined, 'not ASCII');
});

t.test("an id's key is its canonical text, whether it came as text, a number or bytes", async (t) => {
  const auth = { dbt: ['uint32', 'uint64', 'uuid'] } as Claims;
  for (const [kind, raw, key] of [
    ['item', '0', '0'],
    ['item', '4294967295', '4294967295'],
    ['item', 42, '42'],
    ['item', 0, '0'],
    ['item', 4294967295, '4294967295'],
    ['item', Buffer.from('42'), '42'],
    ['user', '9007199254740991', '9007199254740991'],
    ['user', '18446744073709551615', '18446744073709551615'],
    ['user', 2 ** 53 - 1, '9007199254740991'],
    ['session', '123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
  ] as const) {
    const id = parseId(auth, kind, raw, false);
    t.equal(id.key, key, `${kind} ${String(raw)}`);
    t.equal(id.key, String(id.value), 'the key is the value as text');
  }
  // Every text a uint type takes as a number is that number's own text (parseId keeps the text as the key).
  for (const text of ['1', '10', '99999', '4294967295', '1000000000000000', '9007199254740991']) {
    const value = idType('uint64')!.parse(text);
    if (typeof value === 'number') t.equal(String(value), text, text);
  }
});
