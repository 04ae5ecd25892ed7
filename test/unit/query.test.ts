// Query strings: repeated keys, booleans in every spelling clients send, numbers.
import { Type } from '@sinclair/typebox';
import t from 'tap';
import { coerceQuery, parseQuery, ValidQueries } from '../../src/http/query.js';
import { compileValidator } from '../../src/http/validate.js';

const schema = Type.Object({
  amt: Type.Optional(Type.Integer()),
  flag: Type.Optional(Type.Boolean()),
  filters: Type.Optional(Type.Array(Type.String())),
  name: Type.Optional(Type.String()),
});

t.test('repeated keys become lists and encoded characters are decoded', async (t) => {
  t.same(parseQuery('filters=a%3Aeq%3A1&filters=b%2Cc&name=x+y'), { filters: ['a:eq:1', 'b,c'], name: 'x y' });
  t.same(parseQuery(''), {});
});

t.test('booleans accept true/false/True/False/1/0', async (t) => {
  for (const [raw, want] of [
    ['true', true],
    ['True', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
  ] as const) {
    t.equal(coerceQuery(parseQuery(`flag=${raw}`), schema).flag, want, raw);
  }
  t.equal(coerceQuery(parseQuery('flag=maybe'), schema).flag, 'maybe', 'left for the validator to refuse');
});

t.test('numbers are coerced, junk is left for the validator', async (t) => {
  t.equal(coerceQuery(parseQuery('amt=12'), schema).amt, 12);
  t.equal(coerceQuery(parseQuery('amt=twelve'), schema).amt, 'twelve');
  t.equal(coerceQuery(parseQuery('amt='), schema).amt, '');
  t.equal(coerceQuery(parseQuery('amt=0x10'), schema).amt, '0x10', 'decimal notation only');
  t.equal(coerceQuery(parseQuery('amt=Infinity'), schema).amt, 'Infinity');
  t.equal(coerceQuery(parseQuery('amt=2e1'), schema).amt, 20);
});

t.test('a single value of a list parameter is a list; a repeated scalar keeps the last', async (t) => {
  t.same(coerceQuery(parseQuery('filters=a:notempty'), schema).filters, ['a:notempty']);
  t.equal(coerceQuery(parseQuery('amt=1&amt=2'), schema).amt, 2);
});

t.test('a valid query is kept by its text, frozen; a bad one is refused every time and never kept', async (t) => {
  let checks = 0;
  const validate = compileValidator(schema, 'query');
  const queries = new ValidQueries(schema, (q) => {
    checks++;
    validate(q);
  });
  const a = queries.of('amt=5&filters=x%3Aeq%3A1&filters=y');
  t.strictSame({ ...a }, { amt: 5, filters: ['x:eq:1', 'y'] });
  t.ok(Object.isFrozen(a) && Object.isFrozen(a.filters), 'frozen, its lists too: every request with this text shares it');
  t.equal(queries.of('amt=5&filters=x%3Aeq%3A1&filters=y'), a, 'the same object for the same text');
  t.equal(checks, 1, 'parsed and checked once');
  t.not(queries.of('amt=6'), a, 'another text is another query');
  for (let k = 0; k < 2; k++)
    t.throws(
      () => queries.of('amt=x1'),
      { name: 'ApiError', errorName: 'WrongData', data: { name: 'WRONG_PARAMETER' } } as { name: string },
      `a bad amt is refused (${k + 1})`,
    );
  t.equal(checks, 4, 'a refused text is checked again each time');
  for (let k = 0; k < 300; k++) queries.of(`amt=${k + 10}`);
  t.not(queries.of('amt=5&filters=x%3Aeq%3A1&filters=y'), a, 'past 256 texts the kept ones are dropped, and made again');
  t.strictSame(queries.of('amt=5&filters=x%3Aeq%3A1&filters=y'), a);
  const long = `name=${'n'.repeat(600)}`;
  t.not(queries.of(long), queries.of(long), 'a text of over 512 characters is not kept');
});

t.test("keys that name Object's own members are only the query's own keys", async (t) => {
  const raw = parseQuery('__proto__=1&constructor=2&toString=3&toString=4&hasOwnProperty=5');
  t.same(Object.entries(raw), [
    ['__proto__', '1'],
    ['constructor', '2'],
    ['toString', ['3', '4']],
    ['hasOwnProperty', '5'],
  ]);
  const q = coerceQuery(raw, schema);
  t.same(Object.entries(q), Object.entries(raw), 'no schema property is found on the prototype');
  t.equal(Object.getPrototypeOf(q), null);
  const validate = compileValidator(schema, 'query');
  const valid = new ValidQueries(schema, (q) => validate(q));
  t.same(valid.of('amt=3&constructor=1'), { amt: 3, constructor: '1' }, 'checked like any other parameter');
});
