import { Inject, Injectable } from '@nestjs/common';
import type { FileGenerator, GeneratedReply, GenerateOrder } from '@ppfile/dashboard';
import { GenerateService } from './generate.service';

/**
 * The dashboard's FileGenerator port (its Build page's Generate) over the gateway's one generate
 * use-case: the same GenerateService as POST /v1/files/generate — body and row limit checked,
 * Idempotency-Key claimed, units reserved, the file produced by libs/jobs FileProduction in process
 * or by a worker — for the principal the dashboard names (the person's organization, live).
 */
@Injectable()
export class DashboardFileGenerator implements FileGenerator {
  constructor(@Inject(GenerateService) private readonly generation: GenerateService) {}

  async generate(order: GenerateOrder): Promise<GeneratedReply> {
    const reply = await this.generation.generate({
      principal: order.principal,
      lang: order.lang,
      body: order.body,
      rawBody: order.rawBody,
      idempotencyKey: order.idempotencyKey,
      call: { requestId: order.requestId, respondAsync: order.respondAsync },
    });
    return reply.status === 202
      ? { status: 202, body: reply.body, replayed: reply.replayed }
      : { status: 200, body: reply.body, replayed: reply.replayed };
  }
}
