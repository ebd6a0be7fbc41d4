import type { Lang } from '@ppfile/rules';
import { say, type ParamsOf, type WordKey } from './words';

/** Exit status of API.md §11: 0 valid / generated, 1 invalid, 2 usage or I/O error. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/**
 * A mistake in the command line or a file that cannot be read: exit 2 with a one-line explanation.
 * It carries its catalogue entry, not a sentence, so that it is worded in the caller's language.
 */
export class UsageError extends Error {
  constructor(readonly text: (lang: Lang) => string) {
    super(text('en'));
  }
}

export function usageError<K extends WordKey>(key: K, ...params: ParamsOf<K>): UsageError {
  return new UsageError((lang) => say(lang, key, ...params));
}

export interface Output {
  out(text: string | Uint8Array): void;
  err(text: string): void;
  /** A line on the terminal that the next one overwrites; null clears it. No-op when not a terminal. */
  progress(text: string | null): void;
}

/**
 * A reader that stops early (`ppfile check big.json | head -1`) closes the pipe. That is its choice,
 * not a failure of ours: stop writing to that stream and finish with the status the work gives,
 * instead of Node's EPIPE stack trace and exit 1.
 */
const closed = new WeakSet<NodeJS.WriteStream>();
let guarded = false;

function guardClosedPipes(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // A write issued before the EPIPE was reported finds the stream destroyed.
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
      closed.add(stream);
    });
  }
}

function write(stream: NodeJS.WriteStream, text: string | Uint8Array): void {
  guardClosedPipes();
  if (!closed.has(stream)) stream.write(text);
}

let progressShown = false;

export const processOutput: Output = {
  out: (text) => write(process.stdout, text),
  err: (text) => write(process.stderr, text),
  progress: (text) => {
    if (!process.stderr.isTTY) return;
    if (text === null) {
      if (progressShown) write(process.stderr, '\r\x1b[K');
      progressShown = false;
      return;
    }
    write(process.stderr, `\r\x1b[K${text}`);
    progressShown = true;
  },
};

export function printJson(output: Output, value: unknown): void {
  output.out(`${JSON.stringify(value, null, 2)}\n`);
}
