import type { ArgumentMetadata } from '@nestjs/common';
import { ApiError, InvalidFieldsError } from '@ppfile/contract';
import { FileIdParams } from '../files/dto/files.dto';
import { UploadForm } from '../uploads/dto/upload-form.dto';
import { ReferenceSearch } from '../format/dto/format-params.dto';
import { ApiValidationPipe } from './validation';

const pipe = new ApiValidationPipe();

/** What the pipe refuses `value` with (it must refuse it). */
async function refusal(value: unknown, metadata: ArgumentMetadata): Promise<ApiError> {
  try {
    await pipe.transform(value, metadata);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('accepted');
}

const form = (value: Record<string, unknown>) =>
  refusal(value, { type: 'custom', metatype: UploadForm, data: undefined });
const PATH = { version: '2026-02', list: 'rome' };
const query = (value: Record<string, unknown>) =>
  refusal({ ...PATH, ...value }, { type: 'custom', metatype: ReferenceSearch, data: undefined });
const FILE = { name: 'f.csv', bytes: 10 };

describe('ApiValidationPipe: the API error body of a DTO that fails', () => {
  it('is 400 INVALID_REQUEST with details.fields naming each field, in English by default', async () => {
    const error = await form({ type: 'xyz', strict_references: 'maybe', colour: 'blue' });
    expect(error).toBeInstanceOf(InvalidFieldsError);
    expect(error.status).toBe(400);
    const body = error.body('en', 'req_1');
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.message).toBe('The request is malformed (5 problems; see details.fields).');
    expect(body.error.request_id).toBe('req_1');
    expect(body.error.details.field_count).toBe(5);
    expect(body.error.details.fields).toEqual(
      expect.arrayContaining([
        { field: 'colour', message: 'is not a known field' },
        { field: 'file', message: 'is required' },
        { field: 'type', message: 'must be one of: adf, jdr' },
        { field: 'declarant', message: 'is required' },
        { field: 'strict_references', message: 'must be one of: true, false' },
      ]),
    );
  });

  it('speaks French when the caller does (Accept-Language: fr)', async () => {
    const error = await form({ file: FILE, type: 'adf', declarant: 'nobody', colour: 'blue' });
    const body = error.body('fr', 'req_2');
    expect(body.error.message).toBe('La requête est mal formée (2 problèmes ; voir details.fields).');
    expect(body.error.details.fields).toEqual([
      { field: 'colour', message: "n'est pas un champ connu" },
      { field: 'declarant', message: "doit valoir l'une des valeurs: employer, training_organization" },
    ]);
  });

  it('names one problem a field, the first one', async () => {
    const error = await form({ file: FILE, type: ['adf', 'jdr'], declarant: 'employer' });
    expect(error.body('en', 'r').error.details.fields).toEqual([
      { field: 'type', message: 'must be a string' },
    ]);
  });

  it('a text field named file is not the file', async () => {
    const error = await form({ file: 'not a file', type: 'adf', declarant: 'employer' });
    expect(error.body('en', 'r').error.details.fields).toEqual([
      { field: 'file', message: 'is not a known field' },
    ]);
  });

  it('takes a complete form, unchanged', async () => {
    const ok = await pipe.transform(
      { file: FILE, type: 'jdr', declarant: 'employer', strict_references: 'false', spec_version: '2026-02' },
      { type: 'custom', metatype: UploadForm, data: undefined },
    );
    expect(ok).toBeInstanceOf(UploadForm);
    expect(ok).toMatchObject({ type: 'jdr', declarant: 'employer', strict_references: 'false' });
  });

  it('a query string: the limit made a number, its range named, other parameters ignored', async () => {
    const ok = (await pipe.transform(
      { ...PATH, q: 'soudure', limit: '20', _: '12345' },
      { type: 'custom', metatype: ReferenceSearch, data: undefined },
    )) as ReferenceSearch;
    expect(ok).toEqual(Object.assign(new ReferenceSearch(), { ...PATH, q: 'soudure', limit: 20 }));
    for (const limit of ['0', '501', '2.5', 'ten', ''])
      expect((await query({ limit })).body('en', 'r').error.details.fields).toEqual([
        { field: 'limit', message: 'must be an integer from 1 to 500' },
      ]);
    expect((await query({ limit: '0' })).body('fr', 'r').error.details.fields).toEqual([
      { field: 'limit', message: 'doit être un entier de 1 à 500' },
    ]);
    // ?q=a&q=b is an array: named, where it used to reach the search as it was.
    expect((await query({ q: ['a', 'b'] })).body('en', 'r').error.details.fields).toEqual([
      { field: 'q', message: 'must be a string' },
    ]);
  });

  it('a route parameter that names nothing is the route’s own refusal, before a query problem', async () => {
    const params = (value: Record<string, unknown>, metatype: ArgumentMetadata['metatype']) =>
      refusal(value, { type: 'param', metatype, data: undefined });
    expect((await params({ id: 'nope' }, FileIdParams)).code).toBe('NOT_FOUND');
    expect((await query({ list: 'naf', limit: '0' })).code).toBe('NOT_FOUND');
    const version = await query({ version: '1999-01', list: 'naf', limit: '0' });
    expect(version.code).toBe('UNSUPPORTED_SPEC_VERSION');
    expect(version.details).toEqual({ supported: ['2026-02'] });
  });

  it('passes what is not a DTO untouched (the JSON bodies libs/rules reads)', async () => {
    const body = { type: 'adf', anything: 1 };
    expect(await pipe.transform(body, { type: 'body', metatype: Object, data: undefined })).toBe(body);
  });
});

describe('ApiValidationPipe: fields named like Object.prototype’s members', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'a form field named %s is an unknown field, named with the others',
    async (name) => {
      // As multer builds a form: an object without prototype, each field an own property.
      const fields = Object.create(null) as Record<string, unknown>;
      Object.defineProperty(fields, name, {
        value: 'x',
        enumerable: true,
        writable: true,
        configurable: true,
      });
      const ok = await form({ ...fields, file: FILE, type: 'adf', declarant: 'employer' });
      expect(ok.body('en', 'r').error.details.fields).toEqual([
        { field: name, message: 'is not a known field' },
      ]);
      const bad = await form({
        ...fields,
        file: FILE,
        type: 'adf',
        declarant: 'employer',
        colour: 'blue',
        strict_references: 'x',
      });
      expect(bad.body('en', 'r').error.details.fields).toEqual([
        { field: name, message: 'is not a known field' },
        { field: 'colour', message: 'is not a known field' },
        { field: 'strict_references', message: 'must be one of: true, false' },
      ]);
    },
  );
});
