// When a test file's tests are over but its process stays alive, tap's runner kills it at its
// timeout and says only "timeout!". This names what still holds the process (its handles and
// their peers or callbacks) on stderr, 20 s after the file's last test, so CI's log tells whose
// leak it was. A process that exits never prints it (the timer does not hold the process). tap is
// imported when a stack starts, not with this module: helpers that import it also run in worker
// threads (fuzz-worker.ts), where tap would talk to the thread's parent.

const AFTER_MS = 20_000;
let watching = false;

function describe(h: any): string {
  const kind = h?.constructor?.name ?? typeof h;
  if (kind === 'Socket') return `Socket ${h.localPort} -> ${h.remoteAddress}:${h.remotePort}${h.destroyed ? ' (destroyed)' : ''}`;
  if (kind === 'ChildProcess') return `ChildProcess ${h.pid} ${h.spawnargs?.join(' ')}`;
  if (kind === 'Timeout') return `Timeout ${h._idleTimeout} ms: ${String(h._onTimeout).slice(0, 200)}`;
  return kind;
}

export function reportHeldExit(): void {
  if (watching) return;
  watching = true;
  void import('tap').then(({ default: t }) => t.on('complete', () => {
    setTimeout(() => {
      const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().map(describe);
      process.stderr.write(`# the tests are over but the process is still held ${AFTER_MS / 1000} s later by: ${JSON.stringify(process.getActiveResourcesInfo())}\n${handles.map((h) => `#   ${h}`).join('\n')}\n`);
    }, AFTER_MS).unref();
  }));
}
