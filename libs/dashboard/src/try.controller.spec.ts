import { ReferenceDirectory } from '@ppfile/refdata';
import { generateFile, validateCsv } from '@ppfile/rules';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { checkUpload } from './try.controller';

const references = new ReferenceDirectory(null);
const env = { references, today: 20261123, lang: 'en' as const, filename: 'f.csv' };
const csv = (holders: number) =>
  generateFile(validBody('adf', 'employer', holders), { refs: references.lists('2026-02') }).content;
const form = { type: 'adf', declarant: 'employer', strict: true };

describe('Try it: the check', () => {
  it('answers what POST /v1/files/validate answers, with the same rules', () => {
    const bytes = csv(3);
    const outcome = checkUpload({ buffer: bytes }, form, env);
    expect(outcome).toEqual({
      kind: 'result',
      response: validateCsv(
        bytes,
        { type: 'adf', declarant: 'employer', filename: 'f.csv' },
        { refs: references.lists('2026-02'), today: 20261123, maxRows: 50 },
      ),
    });
  });

  it('takes 50 rows at most (a test key’s limit), and says how many the file has', () => {
    expect(checkUpload({ buffer: csv(50) }, form, env).kind).toBe('result');
    expect(checkUpload({ buffer: csv(51) }, form, env)).toEqual({
      kind: 'refused',
      message:
        'The file has 51 rows; Try it checks at most 50 (a test key’s limit). Send it to the API with a live key.',
    });
  });

  it('refuses a missing file and a wrong type or declarant with the API’s words', () => {
    expect(checkUpload(undefined, form, env)).toEqual({
      kind: 'refused',
      message: 'Choose a CSV file to check.',
    });
    expect(checkUpload({ buffer: Buffer.alloc(0) }, form, env).kind).toBe('refused');
    const wrong = checkUpload({ buffer: csv(1) }, { type: 'xyz', declarant: 'nobody', strict: true }, env);
    expect(wrong).toEqual({
      kind: 'refused',
      message: 'type: must be one of: adf, jdr; declarant: must be one of: employer, training_organization',
    });
  });

  it('in French', () => {
    expect(checkUpload(undefined, form, { ...env, lang: 'fr' })).toEqual({
      kind: 'refused',
      message: 'Choisissez un fichier CSV à vérifier.',
    });
  });
});
