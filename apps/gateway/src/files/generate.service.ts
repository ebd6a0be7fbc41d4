import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@ppfile/contract';
import { FileStore } from '@ppfile/db';
import { parseRequest, type Lang } from '@ppfile/rules';
import type { Principal } from '../common/request-context';
import { rowLimit } from '../limits/row-limit';
import { FileProduction } from './file-production';
import { IdempotentExecution } from './idempotent-execution';
import type { CallOptions, Reply } from './reply';

/**
 * POST /v1/files/generate (SERVICE.md §4.2), composed: the body's structure and row limit first
 * (nothing spent on a malformed request), then the idempotent execution of the production.
 */
@Injectable()
export class GenerateService {
  constructor(
    @Inject(IdempotentExecution) private readonly idempotent: IdempotentExecution,
    @Inject(FileProduction) private readonly production: FileProduction,
    @Inject(FileStore) private readonly files: FileStore,
  ) {}

  async generate(input: {
    principal: Principal;
    lang: Lang;
    body: unknown;
    rawBody: Buffer | undefined;
    idempotencyKey: string | undefined;
    call: CallOptions;
  }): Promise<Reply> {
    const { principal, lang, body, call } = input;
    const request = parseRequest(body, { lang, maxRows: rowLimit(principal) });
    const rawBody = input.rawBody ?? Buffer.from(JSON.stringify(body), 'utf8');
    return this.idempotent.run({
      keyId: principal.keyId,
      key: input.idempotencyKey,
      body,
      execute: (claim) => this.production.produce({ principal, lang, request, rawBody, call, claim }),
      replay: (stored) => this.production.replay(stored, request, lang),
      resume: async (fileId) => {
        const record = await this.files.getFileRecord(fileId);
        if (!record) throw new ApiError('INTERNAL_ERROR');
        const reply = this.production.replyOfRecord(record, principal);
        // A `store: false` file a crashed request accepted: its content is made again (never kept).
        return reply.status === 200 && !reply.body.stored
          ? { ...reply, body: this.production.replay(reply.body, request, lang) }
          : reply;
      },
    });
  }
}
