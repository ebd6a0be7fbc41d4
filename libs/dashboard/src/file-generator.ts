import type { GenerateResponseBody, ProcessingResponseBody } from '@ppfile/contract';
import type { AuthenticatedKey } from '@ppfile/db';
import type { Lang } from '@ppfile/rules';

/** One Generate of the Build page, as the API's generate use-case takes it. */
export interface GenerateOrder {
  /**
   * On whose behalf: the signed-in person's organization, in live mode (its live units and quota),
   * under the person's dashboard key (libs/db ApiKeyStore.dashboardKeyOf).
   */
  principal: AuthenticatedKey;
  lang: Lang;
  /** The parsed JSON body: exactly what POST /v1/files/generate takes. */
  body: unknown;
  /** Its bytes as received (the queued job's sealed payload). */
  rawBody: Buffer | undefined;
  /** Required here: a double click on Generate makes one file. */
  idempotencyKey: string;
  requestId: string;
  /** `Prefer: respond-async`: 202 at once rather than waiting for a queued file. */
  respondAsync: boolean;
}

/** Its answer, as POST /v1/files/generate's: 200 with the file, or 202 while a worker makes it. */
export type GeneratedReply =
  | { status: 200; body: GenerateResponseBody; replayed: boolean }
  | { status: 202; body: ProcessingResponseBody; replayed: boolean };

/**
 * The port through which the dashboard produces a file: the application that mounts it provides it
 * (the gateway: an adapter over its one generate use-case, GenerateService → libs/jobs
 * FileProduction, Idempotency-Key claim included), so this library does not import the app.
 * Refusals are thrown as libs/contract ApiError (or RequestError), as the API answers them.
 */
export interface FileGenerator {
  generate(order: GenerateOrder): Promise<GeneratedReply>;
}

/** The FileGenerator's injection token (DashboardModule.forRoot's `ports.fileGenerator`). */
export const FILE_GENERATOR = Symbol('DashboardFileGenerator');
