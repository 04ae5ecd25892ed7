// When a test file's tests are over but its process stays alive, tap's runner kills it at its
// timeout and says only "timeout!". This names what still holds the process (its resources, and
// the sockets and child processes among them) on stderr, 20 s after the file's last test, so CI's
// log tells whose leak it was. A process that exits never prints it (the timer does not hold the
// process). tap is imported here, not with the module that calls this: helpers that import that
// module also run in worker threads (fuzz-worker.ts), where tap would talk to the thread's parent.

const AFTER_MS = 20_000;

function describe(h: any): string {
  const kind = h?.constructor?.name ?? typeof h;
  if (kind === 'Socket')
    return h.remotePort === undefined
      ? `Socket (pipe, fd ${h._handle?.fd})`
      : `Socket ${h.localPort} -> ${h.remoteAddress}:${h.remotePort}`;
  if (kind === 'ChildProcess') return `ChildProcess ${h.pid} ${h.spawnargs?.join(' ')}`;
  return kind;
}

export function reportHeldExit(): void {
  void import('tap').then(({ default: t }) =>
    t.on('complete', () => {
      setTimeout(() => {
        const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().map(describe);
        process.stderr.write(
          `# the tests are over but the process is still held ${AFTER_MS / 1000} s later by: ${JSON.stringify(process.getActiveResourcesInfo())}\n${handles.map((h) => `#   ${h}`).join('\n')}\n`,
        );
      }, AFTER_MS).unref();
    }),
  );
}
