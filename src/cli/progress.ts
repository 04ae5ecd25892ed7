// Progress of a long command on stderr: on a terminal one line redrawn in place (rows so far: the
// total is unknown while a CSV streams), else a line every few seconds, for logs.
const LINE_EVERY_MS = 5000;

export class Progress {
  private lastLine = 0;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly tty = out.isTTY === true,
  ) {}

  update(written: number, rejected: number): void {
    const now = Date.now();
    if (this.tty) {
      this.out.write(`\r${this.text(written, rejected, now)}\x1b[K`);
    } else if (now - this.lastLine >= LINE_EVERY_MS) {
      this.lastLine = now;
      this.out.write(`${this.text(written, rejected, now)}\n`);
    }
  }

  done(written: number, rejected: number): void {
    if (this.tty) this.out.write(`\r${this.text(written, rejected, Date.now())}\x1b[K\n`);
  }

  private text(written: number, rejected: number, now: number): string {
    const s = (now - this.started) / 1000;
    return `${written} written, ${rejected} rejected, ${s.toFixed(0)} s, ${s > 0 ? Math.round((written + rejected) / s) : 0} rows/s`;
  }
}
