import { createCsvValidator, generateFile, validateCsv, type FileValidationResponse } from '@ppfile/rules';
import { testReferences, validBody } from '@ppfile/rules/testing/fixtures';
import { validateInSlices, VALIDATE_SLICE_BYTES } from '@ppfile/jobs';

/**
 * POST /v1/files/validate checks a file under VALIDATE_QUEUE_THRESHOLD_BYTES in slices, yielding to
 * the event loop between them (issue 32). The answer must be the one of a single write, wherever the
 * slices cut: inside a multi-byte character, between CR and LF, inside the byte-order mark, in the header.
 */
const TODAY = 20261122;
const REQUEST = { type: 'adf', declarant: 'employer', filename: 'upload.csv' } as const;
const env = () => ({ refs: testReferences(), today: TODAY, lang: 'en' as const, maxRows: 10_000 });

const csv = (holders: number): string =>
  Buffer.from(
    generateFile(validBody('adf', 'employer', holders), { refs: testReferences(), today: TODAY }).content,
  ).toString('utf8');

/** The answer of one write, or the error it throws. */
function whole(bytes: Uint8Array): FileValidationResponse | { threw: string } {
  try {
    return validateCsv(bytes, REQUEST, env());
  } catch (e) {
    return { threw: String(e) };
  }
}

async function sliced(bytes: Uint8Array, slice: number): Promise<FileValidationResponse | { threw: string }> {
  try {
    return await validateInSlices(createCsvValidator(REQUEST, env()), bytes, slice);
  } catch (e) {
    return { threw: String(e) };
  }
}

const valid = csv(40);
const lines = valid.split('\r\n');
/** Rows with problems: a NIR cut short, a name with accents, an empty required cell, a line of the wrong width. */
const withErrors = [
  lines[0],
  lines[1]!.replace(/\|\d{13}\|/, '|25508141|'),
  lines[2]!.replace(/DUPONT|MARTIN/, 'HÉLÈNE-ŒUVRE'),
  lines[3]!.replace(/DUPONT|MARTIN/, ''),
  'a|b|c',
  ...lines.slice(4),
].join('\r\n');

const FILES: [string, Uint8Array][] = [
  ['a valid file', Buffer.from(valid, 'utf8')],
  ['a file with errors and accented names (UTF-8)', Buffer.from(withErrors, 'utf8')],
  ['a byte-order mark and LF line ends', Buffer.from(`\ufeff${valid.replace(/\r\n/g, '\n')}`, 'utf8')],
  ['Windows-1252 bytes', Buffer.from(withErrors.replace('ŒUVRE', 'OEUVRE'), 'latin1')],
  [
    'bytes that are no text (a lone continuation byte)',
    Buffer.concat([Buffer.from(valid), Buffer.from([0x80, 0x0d])]),
  ],
  [
    'UTF-8 with one Windows-1252 line (a name pasted from another program)',
    Buffer.concat([
      Buffer.from(withErrors, 'utf8'),
      Buffer.from(`${lines[5]!.replace(/DUPONT|MARTIN/, 'CAFÉ')}\r\n`, 'latin1'),
    ]),
  ],
  ['an empty file', Buffer.alloc(0)],
];

describe('validateInSlices: the answer of a single write (POST /v1/files/validate in the gateway)', () => {
  it.each(FILES)(
    '%s, cut every 1, 7, 1,000 bytes and in slices of VALIDATE_SLICE_BYTES',
    async (_name, bytes) => {
      const expected = whole(bytes);
      for (const slice of [1, 7, 1000, VALIDATE_SLICE_BYTES])
        expect(await sliced(bytes, slice)).toEqual(expected);
    },
  );

  it('a file of several slices: the same answer, and other callbacks run between the slices', async () => {
    // The data lines of the valid file, 160 times (the duplicates are errors: as many to compare).
    const bytes = Buffer.from(
      [lines[0], ...Array.from({ length: 160 }, () => lines.slice(1, -1)).flat(), ''].join('\r\n'),
    );
    expect(bytes.length).toBeGreaterThan(3 * VALIDATE_SLICE_BYTES);
    // A callback that queues itself again at each turn of the loop: it runs between the slices.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      if (!ticking) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const answer = await validateInSlices(createCsvValidator(REQUEST, env()), bytes);
    ticking = false;
    expect(answer).toEqual(whole(bytes));
    expect(answer.rows_total).toBe(6400);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(bytes.length / VALIDATE_SLICE_BYTES));
  });

  it('a file over the row limit is refused as a single write refuses it', async () => {
    const bytes = Buffer.from(csv(30), 'utf8');
    const small = { ...env(), maxRows: 10 };
    const one = (() => {
      try {
        return validateCsv(bytes, REQUEST, small);
      } catch (e) {
        return { threw: String(e) };
      }
    })();
    const inSlices = await validateInSlices(createCsvValidator(REQUEST, small), bytes, 100).catch(
      (e: unknown) => ({
        threw: String(e),
      }),
    );
    expect(inSlices).toEqual(one);
  });
});
