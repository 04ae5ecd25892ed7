// An import or export that stopped: the file or the server did not let it go on (exit code 1).
export class RunStopped extends Error {
  override name = 'RunStopped';
}
