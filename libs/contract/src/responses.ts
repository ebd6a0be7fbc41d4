import type { GeneratedFile } from '@ppfile/rules';

export interface GenerateResponseMeta {
  file_id: string;
  mode: 'live' | 'test';
  stored: boolean;
  expires_at: string | null;
  download_url: string | null;
}

/** What the generate response says of a file: a GeneratedFile, or the summary a worker sends back. */
export type FileSummary = Pick<
  GeneratedFile,
  | 'spec_version'
  | 'rows'
  | 'declarations'
  | 'filename'
  | 'sha256'
  | 'warning_count'
  | 'warnings'
  | 'normalization_count'
  | 'normalizations'
> & { content?: Buffer | null };

/** The 200 of POST /v1/files/generate (SERVICE.md §2.3); `content` only when the file is not stored. */
export interface GenerateResponseBody extends GenerateResponseMeta {
  success: true;
  spec_version: string;
  rows: number;
  declarations: number;
  filename: string;
  sha256: string;
  warning_count: number;
  warnings: FileSummary['warnings'];
  normalization_count: number;
  normalizations: FileSummary['normalizations'];
  content?: string;
}

/** The 202 of POST /v1/files/generate (API.md §8): the file is being produced. */
export interface ProcessingResponseBody {
  file_id: string;
  status: 'processing';
}

/** The generate response of SERVICE.md §2.3, with `content` when the file is not stored. */
export function generateResponseBody(file: FileSummary, meta: GenerateResponseMeta): GenerateResponseBody {
  const body: GenerateResponseBody = {
    success: true,
    file_id: meta.file_id,
    mode: meta.mode,
    spec_version: file.spec_version,
    rows: file.rows,
    declarations: file.declarations,
    filename: file.filename,
    sha256: file.sha256,
    stored: meta.stored,
    expires_at: meta.expires_at,
    download_url: meta.download_url,
    warning_count: file.warning_count,
    warnings: file.warnings,
    normalization_count: file.normalization_count,
    normalizations: file.normalizations,
  };
  if (!meta.stored && file.content) body.content = file.content.toString('utf8');
  return body;
}
