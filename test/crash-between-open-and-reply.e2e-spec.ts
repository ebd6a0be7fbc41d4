import { randomUUID } from 'node:crypto';
import { monthOf } from '@ppfile/db';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from './support/gateway';
import { GatewayProcess } from './support/gateway-process';
import { PrivateS3 } from './support/stack';

/**
 * A gateway killed between accepting a file and answering (issue 34): the file it was generating in
 * its own process (a small stored request) is accepted with the request's idempotency claim in the
 * same transaction (libs/jobs FileProduction → FileLifecycle.open), so the retry with the same
 * Idempotency-Key, once the claim's lease is over, is answered from that file — finished by the retry
 * — and never makes a second one. The gateway is a real process, SIGKILLed while its object store
 * (an s3rver of this test's own) is frozen with SIGSTOP, that is after `open` and before the object.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let gw: Gateway;
const s3 = new PrivateS3();
const processes: GatewayProcess[] = [];

beforeAll(async () => {
  gw = await startGateway();
  await s3.start();
}, 60_000);

afterAll(async () => {
  for (const p of processes) await p.kill();
  if (s3.pid) process.kill(-s3.pid, 'SIGCONT');
  await s3.destroy();
  await gw?.close();
});

async function gatewayOnPrivateS3(): Promise<GatewayProcess> {
  const p = new GatewayProcess(gw, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'ppfile-crash' });
  processes.push(p);
  await p.start();
  return p;
}

async function waitFor<T>(what: string, read: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('the retry after a gateway died between open and its reply is answered from the same file, counted once', async () => {
  const org = await gw.organization('starter', 'crash between open and reply');
  const body = validBody('adf', 'training_organization', 4) as Json;
  const key = `crash-${randomUUID()}`;
  const post = (url: string) =>
    fetch(`${url}/v1/files/generate`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${org.live}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': key,
      },
      body: JSON.stringify(body),
    });

  const first = await gatewayOnPrivateS3();
  // The object store stops answering: the gateway accepts the file, then waits on its object.
  process.kill(-s3.pid!, 'SIGSTOP');
  const lost = post(first.url).catch((e: Error) => e);
  const accepted = await waitFor('the accepted file', async () => {
    const rows = await gw.prisma.fileRecord.findMany({ where: { organizationId: org.id } });
    const [only] = rows;
    return rows.length === 1 && only?.status === 'PROCESSING' ? only : null;
  });
  await first.kill();
  expect((await lost) instanceof Response).toBe(false); // the client never got its answer
  process.kill(-s3.pid!, 'SIGCONT');
  // The claim names the file it accepted (the same transaction as the record).
  const claim = await gw.prisma.idempotencyRecord.findUniqueOrThrow({
    where: { apiKeyId_key: { apiKeyId: org.liveId, key } },
  });
  expect(claim).toMatchObject({ state: 'IN_PROGRESS', fileId: accepted.id });
  // Time passes: the dead request's lease on its key ends.
  await gw.prisma.idempotencyRecord.update({
    where: { apiKeyId_key: { apiKeyId: org.liveId, key } },
    data: { leaseExpiresAt: new Date(Date.now() - 1000) },
  });

  const second = await gatewayOnPrivateS3();
  const retry = await post(second.url);
  const answer = (await retry.json()) as Json;
  expect(retry.status).toBe(200);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(answer).toMatchObject({ success: true, file_id: accepted.id, stored: true, rows: 4 });

  // One file, available, its object the answer's bytes; its units committed once.
  const files = await gw.prisma.fileRecord.findMany({ where: { organizationId: org.id } });
  expect(files.map((f) => [f.id, f.status])).toEqual([[accepted.id, 'AVAILABLE']]);
  const download = await fetch(`${second.url}/v1/files/${accepted.id}/download`, {
    headers: { Authorization: `Bearer ${org.live}` },
  });
  expect(download.status).toBe(200);
  expect(download.headers.get('etag')).toBe(`"${answer.sha256}"`);
  await expect(gw.stores.ledger.month(org.id, monthOf(new Date()))).resolves.toMatchObject({
    used: 4,
    committed: 4,
    reserved: 0,
  });
  // A third call is the kept reply.
  const again = await post(second.url);
  expect(again.status).toBe(200);
  expect(((await again.json()) as Json).file_id).toBe(accepted.id);
}, 120_000);
