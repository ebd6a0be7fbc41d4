import type { PayloadCipher } from './payload-cipher';

/**
 * An upload handed to a worker (the `validate` queue: validate-file, import-sheet, fix-file) and its
 * answer, as they sit in Redis (issue 32, finding 5). Both hold NIRs and names, so both are sealed
 * with PAYLOAD_ENCRYPTION_KEY (AES-256-GCM, PayloadCipher) as generation bodies are, under keys that
 * expire. The key's own name is the additional data: a blob opens only where it was written — the
 * upload of its job, not another job's, and never in place of an answer. A job's data (what Bull
 * Board shows) holds only those keys and the request's id: the form travels sealed with the file. Its
 * returnvalue holds where the sealed answer is, never the answer: BullMQ copies a returnvalue into the
 * queue's event stream (up to 10,000 events, no expiry) and keeps it in a completed job until another
 * job ends.
 */
export interface SealedUploadKeys {
  /** The sealed upload, written by the gateway, deleted by the worker once answered (or at expiry). */
  payloadKey: string;
  /** The sealed answer (its JSON), written by the worker, read then deleted by the waiting gateway. */
  answerKey: string;
}

/** What an upload job returns: where its sealed answer is, and the row count of its job line. */
export interface SealedAnswerRef {
  sealed: string;
  rows?: number;
}

/** An upload not taken within the hour is dropped (its client was answered 503 long before). */
export const UPLOAD_PAYLOAD_SECONDS = 3600;

/**
 * An answer the gateway never collects (it restarted meanwhile) goes after five minutes; a waiting
 * gateway reads it within 50 ms of the job's end.
 */
export const UPLOAD_ANSWER_SECONDS = 300;

/**
 * The jobs themselves: a completed one goes with its answer; a failed one (data: the form; reason:
 * our own message, never the file's) stays an hour for operators (Bull Board). BullMQ removes by age
 * when a later job of the queue ends; a gateway that collects the answer removes the job at once.
 */
export const UPLOAD_JOB_RETENTION = {
  removeOnComplete: { age: UPLOAD_ANSWER_SECONDS },
  removeOnFail: { age: 3600 },
} as const;

/**
 * The job id and the Redis keys of one upload (`id`: 32 random hex digits). The id is the keys' hash
 * tag: the worker writes the answer and deletes the upload in one MULTI, the gateway deletes both at
 * once, and a Redis Cluster takes those only on keys of one slot.
 */
export function sealedUploadKeys(prefix: string, id: string): SealedUploadKeys & { jobId: string } {
  return {
    jobId: `validate-${id}`,
    payloadKey: `${prefix}:payload:validate:{${id}}`,
    answerKey: `${prefix}:answer:validate:{${id}}`,
  };
}

/**
 * What the gateway stores under the payload key: the job's input (the form: kind, options, the file's
 * and sheet's names — free text a user chose) and the file, sealed together. The plain text is the
 * input's JSON length (4 bytes, big-endian), that JSON, then the file's bytes.
 */
export function sealUpload(cipher: PayloadCipher, key: string, input: object, file: Uint8Array): Buffer {
  return cipher.sealParts(key, uploadParts(input, file));
}

/** sealUpload, a 1 MiB slice per turn of the event loop (the gateway's: it holds the loop for none). */
export function sealUploadInTurns(
  cipher: PayloadCipher,
  key: string,
  input: object,
  file: Uint8Array,
): Promise<Buffer> {
  return cipher.sealPartsInTurns(key, uploadParts(input, file));
}

function uploadParts(input: object, file: Uint8Array): Uint8Array[] {
  const json = Buffer.from(JSON.stringify(input), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return [length, json, file];
}

/** Throws when the bytes were altered, were written under another key or sealed under another secret. */
export function openUpload<I>(
  cipher: PayloadCipher,
  key: string,
  stored: Uint8Array,
): { input: I; file: Buffer } {
  const plain = cipher.openSealed(key, stored);
  const length = plain.readUInt32BE(0);
  return { input: JSON.parse(plain.toString('utf8', 4, 4 + length)) as I, file: plain.subarray(4 + length) };
}

/** An answer (plain data) sealed as JSON under its key. */
export function sealAnswer(cipher: PayloadCipher, key: string, answer: unknown): Buffer {
  return cipher.sealParts(key, [Buffer.from(JSON.stringify(answer), 'utf8')]);
}

export function openAnswer(cipher: PayloadCipher, key: string, stored: Uint8Array): unknown {
  return JSON.parse(cipher.openSealed(key, stored).toString('utf8')) as unknown;
}
