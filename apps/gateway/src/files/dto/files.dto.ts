import { ApiError, FILE_ID } from '@ppfile/contract';
import { Names } from '../../common/validation';

/** GET /v1/files/{id}[/download]: an id that cannot be a file's names none (404, as an unknown one). */
export class FileIdParams {
  @Names((v) => typeof v === 'string' && FILE_ID.test(v), () => new ApiError('NOT_FOUND'))
  id!: string;
}
