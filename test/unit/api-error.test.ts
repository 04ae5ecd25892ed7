// Error bodies show echoed input cut: quoted values in messages, string values in error_data.
import t from 'tap';
import { ApiError, MESSAGE_MAX_CHARS, notFound, shown, TooLarge, wrongData } from '../../src/errors/api-error.js';

const long = 'x'.repeat(5000);
const cut = `${'x'.repeat(100)}… (5000 characters)`;

t.test('short input is shown whole; long input cut with its length', async (t) => {
  t.equal(shown('abc'), 'abc');
  t.equal(shown('y'.repeat(100)), 'y'.repeat(100));
  t.equal(shown(long), cut);
});

t.test('quoted values in messages are cut where they stand, and error_data.error follows the message', async (t) => {
  const e = wrongData('WRONG_DATA_TYPE', `item_id ${JSON.stringify(long)} is not of type uint32`, { field: 'item_id' });
  t.equal(e.message, `item_id "${cut}" is not of type uint32`);
  t.equal(e.data.error, e.message);
  t.equal(e.data.field, 'item_id');
  // A quote inside the value (escaped by JSON.stringify) does not end the cut early.
  const q = wrongData('WRONG_DATA_TYPE', `value ${JSON.stringify(`"${long}`)} is wrong`);
  t.ok(q.message.length < 200, q.message);
  // Short messages and long messages without long quotes are left alone, up to MESSAGE_MAX_CHARS.
  const plain = 'a message of ordinary length that quotes nothing long, "short" and "quoted" values only, and explains the rule at length';
  t.equal(wrongData('WRONG_PARAMETER', plain).message, plain);
  t.equal(wrongData('WRONG_PARAMETER', 'z'.repeat(5000)).message.length, MESSAGE_MAX_CHARS + ' (5000 characters)'.length + 1);
});

t.test('error_data values are cut, in arrays and objects one level down', async (t) => {
  const e = notFound('ACCOUNT_NOT_FOUND', 'account', long);
  t.equal(e.data.key, cut);
  t.equal(e.message, `account "${cut}" not found`);
  const nested = new ApiError('WrongData', 'WRONG_PARAMETER', 'bad', { ids: ['ok', long], at: { id: long, n: 3 } });
  t.same(nested.data, { name: 'WRONG_PARAMETER', ids: ['ok', cut], at: { id: cut, n: 3 } });
  const kept = { id: 'short' };
  t.equal(new ApiError('WrongData', 'WRONG_PARAMETER', 'bad', { at: kept }).data.at, kept, 'nothing to cut: the same object');
});

t.test('TooLarge: the WrongData body with the size status', async (t) => {
  const e = new TooLarge(413, 'too big');
  t.equal(e.status, 413);
  t.same(e.body(), {
    error_code: 40,
    error_name: 'WrongData',
    message: 'too big',
    error_data: { name: 'WRONG_PARAMETER', error: 'too big' },
  });
  t.equal(new TooLarge(414, 'too long').status, 414);
});
