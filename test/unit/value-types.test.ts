// Property value types: accepted names, value ranges, and filter ops per type.
import t from 'tap';
import { valueType } from '../../src/services/catalogue/value-types.js';

const ok = (name: string, v: unknown) => valueType(name)!.problem(v) === undefined;

t.test('names', async (t) => {
  for (const n of [
    'float',
    'float32',
    'float64',
    'int8',
    'int16',
    'int32',
    'int64',
    'uint8',
    'uint16',
    'uint32',
    'uint64',
    'bool',
    'unicode1',
    'unicode32',
    'unicode999',
  ]) {
    t.ok(valueType(n), n);
  }
  for (const n of ['', 'int', 'float16', 'unicode', 'unicode0', 'unicode1000', 'unicode01', 'str', 'Float', 'bool8'])
    t.notOk(valueType(n), n);
});

t.test('integer ranges', async (t) => {
  t.ok(ok('int8', -128) && ok('int8', 127));
  t.notOk(ok('int8', 128) || ok('int8', -129) || ok('int8', 1.5) || ok('int8', '1'));
  t.ok(ok('uint8', 255) && !ok('uint8', -1));
  t.ok(ok('int32', -2147483648) && !ok('int32', 2147483648));
  t.ok(ok('uint32', 4294967295) && !ok('uint32', 4294967296));
  t.ok(ok('int64', Number.MAX_SAFE_INTEGER) && !ok('int64', 2 ** 53));
  t.notOk(ok('uint64', -1));
});

t.test('floats are finite and within their width', async (t) => {
  t.ok(ok('float', 1.5) && ok('float32', -3.4e38) && ok('float64', 1e300));
  t.notOk(ok('float32', 1e39), 'beyond float32');
  for (const bad of [NaN, Infinity, -Infinity, '1.0', null, true]) t.notOk(ok('float64', bad), String(bad));
});

t.test('unicodeN counts characters, not bytes or UTF-16 units', async (t) => {
  t.ok(ok('unicode3', 'abc'));
  t.notOk(ok('unicode3', 'abcd'));
  t.ok(ok('unicode3', 'été'), 'three characters, five UTF-8 bytes');
  t.ok(ok('unicode2', '😀😀'), 'two astral characters, four UTF-16 units');
  t.notOk(ok('unicode5', 5));
});

t.test('bool takes booleans only', async (t) => {
  t.ok(ok('bool', true) && ok('bool', false));
  t.notOk(ok('bool', 1) || ok('bool', 'true'));
});

t.test('filter ops per kind', async (t) => {
  t.ok(valueType('int8')!.ops.includes('gte'));
  t.notOk(valueType('int8')!.ops.includes('ftsearch'));
  t.ok(valueType('unicode8')!.ops.includes('ftsearch'));
  t.notOk(valueType('unicode8')!.ops.includes('lt'));
  t.same(valueType('bool')!.ops, ['eq', 'neq', 'notempty', 'empty']);
});
