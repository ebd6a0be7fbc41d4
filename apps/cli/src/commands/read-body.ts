import { readFileSync } from 'node:fs';
import { parseJsonBody, type Lang } from '@ppfile/rules';
import { UsageError } from '../cli-io';

/** Reads a request body file; `-` reads standard input. Bad JSON is the API's INVALID_JSON. */
export function readJsonBody(file: string, lang: Lang): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseJsonBody(text, lang);
}
