import type { NextFunction, Response } from 'express';
import multer from 'multer';
import { ApiError, REQUEST_FIELD_PROBLEMS, type RequestFieldProblem } from '@ppfile/contract';
import { sendApiError } from '../common/api-exception.filter';
import { BodyBytes, MAX_BODY_BYTES } from '../common/json-body.middleware';
import type { GatewayRequest } from '../common/request-context';

/**
 * The form's limits: one file, a few short fields (dto/ names the fields each form takes); an
 * import's `mapping` (a JSON object of headers) is the longest.
 */
const FIELD_BYTES = 16 * 1024;
const FIELDS = 10;

/**
 * Multer's memory storage, but the file's chunks are joined a slice at a time (BodyBytes), not in one
 * step: the join of a 9 MB upload held the event loop 30 ms or more on this machine (issue 32).
 * `buffer` and `size` as multer.memoryStorage() sets them.
 */
const growingMemory: multer.StorageEngine = {
  _handleFile(_req, file, callback) {
    // busboy ends a file at `limits.fileSize` (then LIMIT_FILE_SIZE): it cannot outgrow MAX_BODY_BYTES.
    const body = new BodyBytes(MAX_BODY_BYTES);
    let refused = false;
    file.stream.on('data', (chunk: Buffer) => {
      if (refused || body.push(chunk)) return;
      refused = true;
      callback(
        Object.assign(new Error('File too large'), { code: 'LIMIT_FILE_SIZE', field: file.fieldname }),
      );
    });
    file.stream.on('end', () => {
      if (refused) return;
      body.bytes().then((buffer) => callback(null, { buffer, size: buffer.length }), callback);
    });
  },
  _removeFile(_req, file, callback) {
    delete (file as { buffer?: Buffer }).buffer;
    callback(null);
  },
};

/**
 * In memory (no `dest`): the upload never touches the disk (SERVICE.md §4.3). Multer's own
 * refusals are mapped here, each to the API's error naming the part (issue 19: they were "1 problem"
 * with empty details).
 */
const readForm = multer({
  storage: growingMemory,
  // A file name without an explicit charset is UTF-8 (browsers and curl send it so), not Latin-1.
  defParamCharset: 'utf8',
  limits: { fileSize: MAX_BODY_BYTES, files: 1, fields: FIELDS, fieldSize: FIELD_BYTES, parts: FIELDS + 1 },
}).single('file');

/**
 * POST /v1/files/validate, /v1/files/fix and /v1/declarations/import: multipart/form-data only, not compressed (else 415, before anything is
 * read: multipart parts carry no Content-Encoding of their own and a compressed form would be read as
 * garbage), then the form read in memory: `req.file` and the text fields in `req.body`.
 */
export function uploadBody(req: GatewayRequest, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next();
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data')
    return refuse(req, res, new ApiError('UNSUPPORTED_MEDIA_TYPE', { expected: 'multipart/form-data' }));
  const encoding = (req.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity')
    return refuse(
      req,
      res,
      new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        { detail: 'content-encoding', expected: 'identity' },
        {},
        {
          Connection: 'close',
        },
      ),
    );
  readForm(req, res, (err?: unknown) => {
    if (!err) return next();
    const e = err as { code?: string; field?: string };
    if (e.code === 'LIMIT_FILE_SIZE')
      return refuse(
        req,
        res,
        new ApiError('PAYLOAD_TOO_LARGE', { limit: MAX_BODY_BYTES }, {}, { Connection: 'close' }),
      );
    const [field, problem] = formProblem(e);
    const fields = [{ field, message: REQUEST_FIELD_PROBLEMS[problem][req.lang ?? 'en'] }];
    refuse(req, res, new ApiError('INVALID_REQUEST', { count: 1 }, { fields, field_count: 1 }));
  });
}

/** The part a multer or busboy error is about, and what is wrong with it. */
function formProblem(e: { code?: string; field?: string }): [string, RequestFieldProblem] {
  const field = e.field ?? '(body)';
  switch (e.code) {
    case 'LIMIT_FIELD_VALUE':
    case 'LIMIT_FIELD_KEY':
      return [field, 'multipart_too_long'];
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_COUNT':
      return ['(body)', 'multipart_too_many'];
    case 'LIMIT_FILE_COUNT':
      return ['file', 'multipart_second_file'];
    case 'LIMIT_UNEXPECTED_FILE':
      return [field, field === 'file' ? 'multipart_second_file' : 'unknown'];
    default:
      // Busboy's own (no code): no boundary, a malformed part header, the form cut short.
      return ['(body)', 'multipart_unreadable'];
  }
}

function refuse(req: GatewayRequest, res: Response, error: ApiError): void {
  sendApiError(req, res, error);
  // Nothing more is read of a refused form: drain it without keeping it, so the client gets the answer.
  req.resume();
}
