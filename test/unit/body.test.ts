// Body decompression: gzip, zlib and raw deflate whatever the label, with an output cap.
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import t from 'tap';
import { decompress, needsDecompression } from '../../src/http/body.js';

const text = Buffer.from('{"hello":"world"}'.repeat(10));

t.test('every zlib format is recognised by its bytes', async (t) => {
  for (const packed of [gzipSync(text), deflateSync(text), deflateRawSync(text)]) {
    t.same(Buffer.from(await decompress(packed, 1 << 20)), text);
  }
});

t.test('the output cap and corrupt input are WrongData', async (t) => {
  await t.rejects(decompress(gzipSync(Buffer.alloc(1 << 20)), 1000), {
    name: 'ApiError',
    errorName: 'WrongData',
    message: /more than 1000 bytes/,
  } as { name: string });
  await t.rejects(decompress(Buffer.from([0x1f, 0x8b, 0, 0, 0]), 1000), { name: 'ApiError', errorName: 'WrongData' } as { name: string });
});

t.test('the cap is 413 once the output passes it, exact fits pass, and concatenated gzip members are one body', async (t) => {
  const exact = Buffer.alloc(200_000, 0x61);
  t.equal((await decompress(gzipSync(exact), exact.length)).length, exact.length);
  await t.rejects(decompress(gzipSync(exact), exact.length - 1), { name: 'ApiError', status: 413, message: /more than 199999 bytes/ } as {
    name: string;
  });
  const members = Buffer.concat([gzipSync(text), gzipSync(text)]);
  t.same(Buffer.from(await decompress(members, 1 << 20)), Buffer.concat([text, text]));
  // A bomb of 1000 members (10 GiB inflated) is stopped at the cap, not inflated whole.
  const member = gzipSync(Buffer.alloc(10 << 20));
  const bomb = Buffer.concat(Array.from({ length: 1000 }, () => member));
  await t.rejects(decompress(bomb, 1 << 20), { name: 'ApiError', status: 413 } as { name: string });
});

t.test('Content-Encoding labels', async (t) => {
  t.equal(needsDecompression(''), false);
  t.equal(needsDecompression('identity'), false);
  t.equal(needsDecompression('GZIP'), true);
  t.equal(needsDecompression('deflate'), true);
  t.throws(() => needsDecompression('br'), { name: 'ApiError', errorName: 'WrongData' } as { name: string });
});
