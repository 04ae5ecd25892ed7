// `recd serve --workers N` with RECD_METRICS_PORT=P: worker n serves its own /metrics on P + n − 1,
// every series labelled worker="n".
import t from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { serveTwoWorkers } from '../helpers/cli.js';

const metricsPort = await freePort();
await serveTwoWorkers(t, { RECD_METRICS_PORT: String(metricsPort), RECD_METRICS_TOKEN: 'workers-secret' });

t.test('each worker on its own port, labelled', async (t) => {
  for (const n of [1, 2]) {
    const res = await fetch(`http://127.0.0.1:${metricsPort + n - 1}/metrics`, { headers: { authorization: 'Bearer workers-secret' } });
    t.equal(res.status, 200, `worker ${n}`);
    const text = await res.text();
    t.match(text, new RegExp(`^nodejs_eventloop_lag_p99_seconds\\{worker="${n}"\\} \\d`, 'm'), `worker ${n}'s series carry worker="${n}"`);
    t.notMatch(text, new RegExp(`worker="${3 - n}"`), 'and only its own');
  }
});
