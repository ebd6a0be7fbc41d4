import type { UploadContext, UploadOutcome, UploadResponses, UploadTask } from '@ppfile/jobs';

/**
 * What crosses to an upload thread (UploadPool, upload.thread.ts) and back, apart from both so that
 * neither loads the other: the thread needs no Nest, the pool no reference lists.
 */
export interface UploadThreadTask {
  /** Names this task in the thread's "started" message: its time budget runs from then. */
  token: string;
  task: UploadTask;
  bytes: Uint8Array;
  ctx: UploadContext;
}

export type UploadThreadOutcome = UploadOutcome<UploadResponses[UploadTask['kind']]>;

/** The message a thread posts (piscina's `message` event) as it starts a task. */
export interface UploadStarted {
  uploadStarted: string;
}

export function isUploadStarted(message: unknown): message is UploadStarted {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { uploadStarted?: unknown }).uploadStarted === 'string'
  );
}

/** The prefix of a thread's own error: only the class of what went wrong crosses, never its message. */
export const UPLOAD_THREAD_FAILED = 'upload thread failed';
