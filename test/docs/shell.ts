import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * One bash for all the examples of a doc, as a reader would type them in one terminal: the working
 * directory, files and variables of an example stay for the next. Standard error goes into the same
 * pipe as standard output, so lines come out in the order they were written.
 */
export class Shell {
  private readonly bash: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting: (() => void) | null = null;
  private exited = false;

  constructor(cwd: string, env: NodeJS.ProcessEnv, prelude: string) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env, detached: true });
    this.bash.stdout.setEncoding('utf8');
    this.bash.stdout.on('data', (d: string) => {
      this.buffer += d;
      this.waiting?.();
    });
    this.bash.stderr.on('data', (d: Buffer) => {
      this.buffer += d.toString('utf8');
      this.waiting?.();
    });
    this.bash.on('exit', () => {
      this.exited = true;
      this.waiting?.();
    });
    this.bash.stdin.write(`exec 2>&1\n${prelude}\n`);
  }

  /** Runs `command` and resolves with what it printed and its exit status. */
  async run(command: string, timeoutMs = 120_000): Promise<{ output: string; status: number }> {
    const marker = `__DOCS_${randomBytes(6).toString('hex')}__`;
    this.buffer = '';
    this.bash.stdin.write(`{\n${command}\n} < /dev/null\nprintf '\\n${marker}%d\\n' "$?"\n`);
    const done = new RegExp(`\\n${marker}(\\d+)\\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = done.exec(this.buffer);
      if (m) {
        const output = this.buffer.slice(0, m.index);
        return { output, status: Number(m[1]) };
      }
      if (this.exited) throw new Error(`bash exited while running:\n${command}\n${this.buffer}`);
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms:\n${command}\n${this.buffer}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = null;
    }
  }

  /** Ends bash and everything it started (its process group). */
  close(): void {
    if (this.exited || this.bash.pid === undefined) return;
    try {
      process.kill(-this.bash.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
