import { createReadStream, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { parseJsonBody, type Lang } from '@ppfile/rules';
import { usageError } from '../cli-io';

/** Pieces of 1 MiB: the CSV validator's memory does not grow with the file. */
const CHUNK = 1 << 20;

function cannotRead(file: string, e: unknown) {
  return usageError('cannot_read', {
    file,
    reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message,
  });
}

/**
 * The bytes of a file operand, piece by piece; `-` is standard input. Every file command reads
 * through here, so `-` means the same for all; nothing is written to disk.
 */
export async function* readInput(file: string): AsyncGenerator<Buffer> {
  const stream = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: CHUNK });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (e) {
    throw cannotRead(file, e);
  }
}

/**
 * The bytes of a file operand as readInput gives them, but a file (not `-`) is read into ONE buffer,
 * reused: each piece is valid only until the next is asked for, for a reader that is done with a
 * piece when it asks (the CSV validator copies only the unfinished line). A fresh 1 MiB buffer a
 * piece, as a stream reads, held ~10 MB more at the peak of `ppfile validate` of 16 MB
 * (docs/benchmarks.md, "The command line's validate").
 */
export async function* readInputReusing(file: string): AsyncGenerator<Buffer> {
  if (file === '-') {
    yield* readInput(file);
    return;
  }
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    throw cannotRead(file, e);
  }
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      let n: number;
      try {
        ({ bytesRead: n } = await handle.read(buffer, 0, CHUNK, null));
      } catch (e) {
        throw cannotRead(file, e);
      }
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    await handle.close();
  }
}

/** The size of a file operand that is a regular file (not `-`, a pipe or a device), or null. */
export function regularFileSize(file: string): number | null {
  if (file === '-') return null;
  try {
    const stat = statSync(file);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null; // readInput reports why it cannot be read
  }
}

/** A regular file's bytes at once. */
export function readInputFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw cannotRead(file, e);
  }
}

/** A request body: the whole input, parsed; bad JSON is the API's INVALID_JSON. */
export async function readJsonBody(file: string, lang: Lang): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of readInput(file)) chunks.push(chunk);
  return parseJsonBody(Buffer.concat(chunks), lang);
}
