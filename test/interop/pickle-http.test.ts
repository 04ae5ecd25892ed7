// A real Python client, speaking pickle the way the existing Python clients do (zlib-compressed
// protocol-4 pickles labelled `Content-Encoding: gzip`, `application/xminds-pkl` both ways,
// numpy structured arrays for bulk data), drives a whole flow against the real server.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { freshDatabase } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { RECO_ENV } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack(RECO_ENV);
t.teardown(() => stack.close());
const root = await rootToken(stack.api);
const { token } = await freshDatabase(stack.api, root, { user_id_type: 'uint32' });

const CLIENT = String.raw`
import json, pickle, sys, time, urllib.error, urllib.request, zlib
import numpy as np

base, token = sys.argv[1], sys.argv[2]
out = {}

def call(method, path, data=None, accept='application/xminds-pkl'):
    body = zlib.compress(pickle.dumps(data, protocol=4)) if data else b''
    req = urllib.request.Request(base + '/' + path, data=body if body else None, method=method, headers={
        'Content-Type': 'application/xminds-pkl', 'Content-Encoding': 'gzip', 'Accept': accept,
        'Authorization': 'Bearer ' + token, 'Content-Length': str(len(body))})
    try:
        with urllib.request.urlopen(req) as r:
            raw = r.read()
            return r.status, (pickle.loads(raw) if r.status != 204 else None), r.headers.get('Content-Encoding')
    except urllib.error.HTTPError as e:
        return e.code, pickle.loads(e.read()), None

out['property'] = call('POST', 'items-properties/', {'property_name': 'genre', 'value_type': 'unicode16'})[0]
out['tags'] = call('POST', 'items-properties/', {'property_name': 'tags', 'value_type': 'unicode16', 'repeated': True})[0]
out['age'] = call('POST', 'users-properties/', {'property_name': 'age', 'value_type': 'uint8'})[0]
items = np.array([(i, 'a' if i <= 20 else 'b') for i in range(1, 41)], dtype=[('item_id', '<u4'), ('genre', '<U16')])
m2m = np.array([(0, 'red'), (0, 'gr\u00fcn'), (2, 'blue')], dtype=[('item_index', '<u4'), ('value_id', '<U16')])
status, answer, _ = call('PUT', 'items-bulk/properties/', {'items': items, 'items_m2m': [{'name': 'tags', 'array': m2m}]})
out['items'] = [status, sorted(answer.keys())]
status, answer, _ = call('GET', 'items/1/properties/')
out['item1'] = [status, answer['item']]
status, answer, _ = call('GET', 'items/3/properties/')
out['item3'] = [status, answer['item']]
users = np.array([(u, 20 + u % 50) for u in range(1, 61)], dtype=[('user_id', '<u4'), ('age', 'u1')])
status, answer, _ = call('PUT', 'users-bulk/properties/', {'users': users})
out['users'] = [status, answer.get('n_created')]
status, answer, _ = call('GET', 'users/7/properties/')
out['user7'] = [status, answer['user']]
status, answer, _ = call('PUT', 'users-bulk/properties/', {'users': np.array([(1, 300)], dtype=[('user_id', '<u4'), ('age', '<u2')])})
out['bad_user'] = [status, answer['error_name'], answer['error_data']['name']]
rows = []
for u in range(60):
    for j in range(10):
        item = ((u * 3 + j * 7) % 20) + (1 if u < 30 else 21)
        rows.append((u + 1, item, 8.0 + (u + j) % 3, 1.7e9 + u * 10 + j))
ratings = np.array(rows, dtype=[('user_id', '<u4'), ('item_id', '<u4'), ('rating', '<f4'), ('timestamp', '<f8')])
status, answer, _ = call('PUT', 'ratings-bulk/', {'ratings': ratings})
out['ratings'] = [status, answer]
for _ in range(300):
    status, answer, _ = call('GET', 'databases/current/status/')
    if answer.get('status') == 'ready':
        break
    time.sleep(0.2)
out['status'] = answer
status, answer, encoding = call('GET', 'recommendation/users/1/items/', None)
out['reco'] = [status, [int(x) for x in answer['items_id']], answer['warnings'], encoding, type(answer['items_id']).__name__, str(answer['items_id'].dtype)]
status, answer, _ = call('GET', 'recommendation/items/99999/items/')
out['not_found'] = [status, answer]
status, answer, _ = call('GET', 'users/1/ratings/')
ur = answer['user_ratings']
out['user_ratings'] = [status, len(ur), list(ur.dtype.names), str(ur['rating'].dtype), type(ur).__name__]
status, answer, _ = call('GET', 'items-bulk/properties/?amt=3')
it = answer['items']
out['listing'] = [status, type(it).__name__, [list(f) for f in it.dtype.descr], it['item_id'].tolist(), it['genre'].tolist(),
                  [(m['name'], m['array'].dtype.names, m['array'].tolist()) for m in answer['items_m2m']], answer['has_next']]
status, answer, _ = call('POST', 'users-bulk/properties/list/', {'users_id': np.array([3, 5], dtype='<u4')})
out['users_list'] = [status, answer['users'].tolist(), answer['users_m2m']]
status, answer, _ = call('PUT', 'ratings-bulk/', {'ratings': np.array([(1, 1, 11.0, 1.7e9)], dtype=ratings.dtype)})
out['bad_rating'] = [status, answer['error_name'], answer['error_data']['name']]
status, answer, _ = call('POST', 'login/jwt/')
out['empty_body'] = [status, sorted(answer.keys())]
print(json.dumps(out))
`;

t.test('a Python client speaking pickle: catalogue, ratings, training, recommendations, errors', async (t) => {
  // Asynchronously: the server runs in this process and must keep answering meanwhile.
  const run = await promisify(execFile)('python3', ['-c', CLIENT, stack.api.base, token], { encoding: 'utf8', timeout: 100_000 }).catch(
    (err: { stderr?: string; message: string }) => {
      throw new Error(`python failed: ${err.stderr?.slice(-2000) ?? err.message}`);
    },
  );
  const out = JSON.parse(run.stdout);
  t.equal(out.property, 204, 'property created (204, no body)');
  t.equal(out.items[0], 200, 'items from a structured array');
  t.same(out.items[1], ['ml_task_id', 'n_created', 'n_modified', 'warnings']);
  t.same([out.tags, out.age], [204, 204]);
  t.same(out.item1, [200, { item_id: 1, genre: 'a', tags: ['red', 'grün'] }], 'items_m2m filled the repeated property');
  t.same(out.item3, [200, { item_id: 3, genre: 'a', tags: ['blue'] }]);
  t.same(out.users, [200, 60], 'users from a structured array');
  t.same(out.user7, [200, { user_id: 7, age: 27 }]);
  t.same(out.bad_user, [400, 'WrongData', 'WRONG_DATA_TYPE'], 'a value outside its type, from a column');
  t.same(out.ratings, [200, { warnings: [] }], '600 ratings from a structured array');
  t.same(out.status, { status: 'ready' }, 'trained');
  t.equal(out.reco[0], 200);
  t.equal(out.reco[1].length, 10, 'ten items');
  t.ok(out.reco[1].filter((i: number) => i <= 20).length >= 8, `user 1 likes A items: ${JSON.stringify(out.reco[1])}`);
  t.equal(out.reco[3], null, 'pickle answers are not compressed');
  t.same(out.reco.slice(4), ['ndarray', 'uint32'], 'items_id arrives as a numpy uint32 array');
  t.equal(out.not_found[0], 404);
  t.equal(out.not_found[1].error_data.name, 'ITEM_NOT_FOUND', 'errors are pickled too');
  t.same(out.user_ratings, [200, 10, ['item_id', 'rating', 'timestamp'], 'float64', 'ndarray'], 'ratings arrive as a structured array');
  t.same(
    out.listing,
    [
      200,
      'ndarray',
      [
        ['item_id', '<u4'],
        ['genre', '<U1'],
      ],
      [1, 2, 3],
      ['a', 'a', 'a'],
      [
        [
          'tags',
          ['item_index', 'value_id'],
          [
            [0, 'red'],
            [0, 'grün'],
            [2, 'blue'],
          ],
        ],
      ],
      true,
    ],
    'the items listing: a structured array, repeated values in items_m2m',
  );
  t.same(
    out.users_list,
    [
      200,
      [
        [3, 23],
        [5, 25],
      ],
      [],
    ],
    'users by id: a structured array',
  );
  t.same(out.bad_rating, [400, 'WrongData', 'WRONG_DATA_TYPE']);
  t.equal(out.empty_body[0], 200, 'an empty body with pickle headers is accepted');
});
