import type { GenerateResponseBody, ProcessingResponseBody } from '@ppfile/contract';

/** A generate answer before it is written: status, body and the headers that go with them. */
export type Reply =
  | { status: 200; body: GenerateResponseBody; replayed: boolean; location?: undefined }
  | {
      status: 202;
      body: ProcessingResponseBody;
      replayed: boolean;
      /** Where the file's status is read. */
      location: string;
    };

export interface CallOptions {
  requestId: string;
  /** `Prefer: respond-async` (API.md §8). */
  respondAsync: boolean;
}

export function processingReply(fileId: string): Reply {
  return {
    status: 202,
    body: { file_id: fileId, status: 'processing' },
    replayed: false,
    location: `/v1/files/${fileId}`,
  };
}
