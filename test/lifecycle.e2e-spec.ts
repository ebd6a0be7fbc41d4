/**
 * The file lifecycle (libs/jobs FileLifecycle), the only writer of a file's state, units and
 * payload, against the real PostgreSQL and a real S3 endpoint (s3rver): every move of libs/contract's
 * FILE_TRANSITIONS happens once, moves the table lacks never happen, and each move settles the
 * file's units and payload with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  FILE_STATUSES,
  FILE_TRANSITIONS,
  isFileTransition,
  newFileId,
  type FileStatus,
} from '@ppfile/contract';
import { createPrismaClient, createStores, type PrismaClient, type Stores } from '@ppfile/db';
import { checkInvariants, FileLifecycle, PayloadCipher, payloadKeyOf, type AcceptedFile } from '@ppfile/jobs';
import { generateFile } from '@ppfile/rules';
import { body as declarationBody, testEnv } from '@ppfile/rules/testing/format-helpers';
import { LOCAL_S3_CREDENTIALS, ObjectStorage, startLocalS3, type LocalS3 } from '@ppfile/storage';
import { createTestDatabase, type TestDatabase } from './support/database';

const MONTH = '2026-11';

describe('the file lifecycle', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let stores: Stores;
  let s3: LocalS3;
  let dir: string;
  let storage: ObjectStorage;
  let lifecycle: FileLifecycle;
  let now = new Date('2026-11-22T10:00:00.000Z');
  const committed: number[] = [];
  let org: { id: string };
  let key: { id: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url, { poolMax: 4 });
    stores = createStores(prisma, () => now);
    dir = mkdtempSync(path.join(tmpdir(), 'ppfile-s3-'));
    s3 = await startLocalS3({ directory: dir });
    storage = new ObjectStorage({
      endpoint: s3.endpoint,
      ...LOCAL_S3_CREDENTIALS,
      bucket: 'ppfile-lifecycle',
      region: 'us-east-1',
    });
    await storage.ensureBucket();
    lifecycle = new FileLifecycle({
      prisma,
      stores,
      storage,
      cipher: new PayloadCipher(randomBytes(32)),
      now: () => now,
      onCommitted: (c) => committed.push(c.units),
    });
    org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'pro' });
    key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const generated = () => generateFile(declarationBody('adf', 'employer', 1), testEnv());

  function accepted(units: number): AcceptedFile {
    return {
      id: newFileId(),
      organizationId: org.id,
      apiKeyId: key.id,
      mode: 'live',
      type: 'adf',
      declarant: 'employer',
      specVersion: '2026-02',
      filename: 'ppfile_adf_20261122_1a2b3c4d.csv',
      rows: 1,
      declarations: 1,
      stored: true,
      units,
      lang: 'fr',
      requestId: 'req_1',
    };
  }

  async function reserve(units: number): Promise<string> {
    const r = await stores.ledger.reserve({ organizationId: org.id, month: MONTH, units, limit: 1_000_000 });
    if (!r.ok) throw new Error('no reservation');
    return r.reservationId;
  }

  const used = async () => (await stores.ledger.month(org.id, MONTH)).used;
  /** Whether a file's sealed body is in the object store (where every new one goes). */
  const payloadOf = (fileId: string) => storage.exists(payloadKeyOf(fileId));

  it('has a table in which every state is known and only processing and available move', () => {
    expect(Object.keys(FILE_TRANSITIONS).sort()).toEqual([...FILE_STATUSES].sort());
    const moves = FILE_STATUSES.flatMap((from) =>
      FILE_STATUSES.filter((to) => isFileTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(moves).toEqual(['processing→available', 'processing→failed', 'available→expired']);
  });

  it('opens a file processing with its reservation, claim and sealed body in one transaction', async () => {
    const before = await used();
    const reservationId = await reserve(4);
    await stores.idempotency.beginIdempotent(key.id, 'k-open', 'h'.repeat(64), now, 60_000);
    const file = accepted(4);
    const record = await lifecycle.open({
      record: file,
      reservationId,
      body: Buffer.from('{"type":"adf"}'),
      claim: { apiKeyId: key.id, key: 'k-open' },
    });
    expect(record).toMatchObject({
      status: 'processing',
      objectKey: `files/${file.id}.csv`,
      lang: 'fr',
      type: 'adf',
      declarant: 'employer',
    });
    expect(record.payloadKey).toBe(`payloads/generate/${file.id}`);
    expect(await payloadOf(file.id)).toBe(true);
    expect((await lifecycle.readBody(record))!.toString()).toBe('{"type":"adf"}');
    // Sealed in the object store, nothing in PostgreSQL: the bytes at rest are not the body, and
    // another key, or the body of another file, does not open them.
    const atRest = await storage.get(record.payloadKey!);
    expect(atRest.includes(Buffer.from('"type"'))).toBe(false);
    expect(await prisma.jobPayload.count()).toBe(0);
    const stranger = new FileLifecycle({
      prisma,
      stores,
      storage,
      cipher: new PayloadCipher(randomBytes(32)),
      now: () => now,
    });
    await expect(stranger.readBody(record)).rejects.toThrow();
    await storage.put(payloadKeyOf('file_copy'), atRest, 'application/octet-stream');
    await expect(
      lifecycle.readBody({ id: 'file_copy', payloadKey: payloadKeyOf('file_copy') }),
    ).rejects.toThrow();
    await storage.remove(payloadKeyOf('file_copy'));
    const claim = await prisma.idempotencyRecord.findFirst({ where: { apiKeyId: key.id, key: 'k-open' } });
    expect(claim?.fileId).toBe(file.id);
    expect(await used()).toBe(before + 4);
    // processing → failed: units back, payload gone; a second fail changes nothing.
    await expect(lifecycle.fail(file.id, { error: { code: 'INTERNAL_ERROR' } } as never)).resolves.toBe(true);
    await expect(lifecycle.fail(file.id, { error: { code: 'INTERNAL_ERROR' } } as never)).resolves.toBe(
      false,
    );
    expect(await used()).toBe(before);
    expect(await payloadOf(file.id)).toBe(false);
    expect((await stores.files.getFileRecord(file.id))?.payloadKey).toBeNull();
    await expect(stores.files.getFileRecord(file.id)).resolves.toMatchObject({
      status: 'failed',
      units: 0,
      objectKey: null,
      error: { error: { code: 'INTERNAL_ERROR' } },
    });
  });

  it('stores a processing file once: object, units committed, payload deleted; never after a failure', async () => {
    const reservationId = await reserve(2);
    const before = await used();
    const record = await lifecycle.open({ record: accepted(2), reservationId, body: Buffer.from('{}') });
    const file = generated();
    committed.length = 0;
    const done = await lifecycle.store(record, file, 24);
    expect(done).toMatchObject({ status: 'available', sha256: file.sha256, stored: true, payloadKey: null });
    expect(done.expiresAt).toEqual(new Date(now.getTime() + 24 * 3600_000));
    expect(await storage.get(record.objectKey!)).toEqual(file.content);
    expect(await payloadOf(record.id)).toBe(false);
    expect(committed).toEqual([2]);
    // Again (a job retried): nothing moves, nothing is counted twice.
    await expect(lifecycle.store(record, file, 24)).resolves.toMatchObject({ status: 'available' });
    expect(committed).toEqual([2]);
    expect(await used()).toBe(before);
    // available does not fail.
    await expect(lifecycle.fail(record.id, { error: { code: 'INTERNAL_ERROR' } } as never)).resolves.toBe(
      false,
    );
    await expect(stores.files.getFileRecord(record.id)).resolves.toMatchObject({ status: 'available' });

    // A file that failed meanwhile (its lease ran out) is not stored: no object outlives it.
    const late = await lifecycle.open({ record: accepted(1), reservationId: await reserve(1) });
    await lifecycle.fail(late.id, { error: { code: 'INTERNAL_ERROR' } } as never);
    const after = await lifecycle.store(late, file, 24);
    expect(after.status).toBe('failed');
    expect(await storage.exists(late.objectKey!)).toBe(false);
  });

  it('a stale copy of a record another run finished writes nothing over its object', async () => {
    const record = await lifecycle.open({ record: accepted(2), reservationId: await reserve(2) });
    const file = generated();
    await lifecycle.store(record, file, 24);
    const other = { ...file, content: Buffer.from('not the file') };
    await expect(lifecycle.store(record, other, 24)).resolves.toMatchObject({ status: 'available' });
    expect(await storage.get(record.objectKey!)).toEqual(file.content);
  });

  it('a reservation is released by the reconciler only while no file is at work on it, and a released one accepts no file', async () => {
    const held = await reserve(4);
    const record = await lifecycle.open({ record: accepted(4), reservationId: held });
    await expect(
      stores.ledger.release({ reservationId: held }, undefined, { unlessProcessing: true }),
    ).resolves.toBe(false);
    await lifecycle.fail(record.id, { error: { code: 'INTERNAL_ERROR' } } as never);

    const released = await reserve(1);
    await expect(stores.ledger.release({ reservationId: released })).resolves.toBe(true);
    const late = accepted(1);
    await expect(
      lifecycle.open({ record: late, reservationId: released, body: Buffer.from('{}') }),
    ).rejects.toThrow(/no longer held/);
    await expect(stores.files.getFileRecord(late.id)).resolves.toBeNull();
    // The body sealed before the transaction is taken back with it.
    expect(await payloadOf(late.id)).toBe(false);
  });

  it('records a store: false file finished, its units committed at once', async () => {
    const before = await used();
    const reservationId = await reserve(3);
    committed.length = 0;
    const record = await lifecycle.recordNotStored({
      record: { ...accepted(3), stored: false },
      reservationId,
      file: generated(),
    });
    expect(record).toMatchObject({ status: 'not_stored', stored: false, objectKey: null, expiresAt: null });
    expect(committed).toEqual([3]);
    expect(await used()).toBe(before + 3);
    // not_stored never moves.
    await expect(lifecycle.fail(record.id, { error: { code: 'INTERNAL_ERROR' } } as never)).resolves.toBe(
      false,
    );
  });

  it('expires available files past their retention once, deleting their objects', async () => {
    const record = await lifecycle.open({ record: accepted(1), reservationId: await reserve(1) });
    const done = await lifecycle.store(record, generated(), 1);
    now = new Date(now.getTime() + 2 * 3600_000);
    const swept = await lifecycle.sweepExpired();
    expect(swept).toBeGreaterThanOrEqual(1);
    await expect(stores.files.getFileRecord(done.id)).resolves.toMatchObject({
      status: 'expired',
      objectKey: null,
    });
    expect(await storage.exists(done.objectKey!)).toBe(false);
    const statuses = async () =>
      (await prisma.fileRecord.findMany({ select: { status: true } })).map((r) => r.status);
    const before = await statuses();
    await expect(lifecycle.sweepExpired()).resolves.toBe(0);
    expect(await statuses()).toEqual(before);
  });

  it('reconciles what a crash left: stale reservations, left-over payloads, stale objects', async () => {
    const before = await used();
    // A reservation whose request died before any file existed.
    await reserve(5);
    // A payload whose file ended without it being deleted (written by hand: only a crash does
    // this), and a legacy one in PostgreSQL alike.
    const record = await lifecycle.open({ record: accepted(1), reservationId: await reserve(1) });
    await lifecycle.store(record, generated(), 24);
    await storage.put(payloadKeyOf(record.id), Buffer.from('sealed'), 'application/octet-stream');
    await prisma.jobPayload.create({
      data: { fileId: record.id, nonce: new Uint8Array(12), ciphertext: new Uint8Array(4) },
    });
    // A body sealed by a request that died before its transaction: no record, ever.
    const orphan = payloadKeyOf(newFileId());
    await storage.put(orphan, Buffer.from('sealed'), 'application/octet-stream');
    // A queued file still waiting for its worker keeps its body.
    const waiting = await lifecycle.open({
      record: accepted(1),
      reservationId: await reserve(1),
      body: Buffer.from('{}'),
    });
    // An object the store refused to delete when its file failed.
    const failing = await lifecycle.open({ record: accepted(1), reservationId: await reserve(1) });
    await storage.put(failing.objectKey!, Buffer.from('x'), 'text/csv');
    await prisma.fileRecord.update({
      where: { id: failing.id },
      data: { status: 'FAILED', units: 0 },
    });
    await stores.ledger.release({ fileId: failing.id });

    now = new Date(now.getTime() + 3600_000);
    await expect(lifecycle.releaseStaleReservations(now, 100)).resolves.toBe(1);
    await expect(lifecycle.releaseStaleReservations(now, 100)).resolves.toBe(0);
    // The orphan is young (written just now, by the store's clock): a request may still be between
    // its write and its transaction, so it stays; older than the lease, it goes.
    await expect(lifecycle.removeLeftOverPayloads(100, new Date(Date.now() - 600_000))).resolves.toBe(2);
    expect(await payloadOf(record.id)).toBe(false);
    expect(await prisma.jobPayload.count({ where: { fileId: record.id } })).toBe(0);
    expect(await storage.exists(orphan)).toBe(true);
    await expect(lifecycle.removeLeftOverPayloads(100, new Date(Date.now() + 60_000))).resolves.toBe(1);
    expect(await storage.exists(orphan)).toBe(false);
    expect(await payloadOf(waiting.id)).toBe(true);
    await expect(lifecycle.readBody(waiting)).resolves.toEqual(Buffer.from('{}'));
    await lifecycle.fail(waiting.id, { error: { code: 'INTERNAL_ERROR' } } as never);
    await expect(lifecycle.removeStaleObjects(100)).resolves.toBe(1);
    expect(await storage.exists(failing.objectKey!)).toBe(false);
    await expect(lifecycle.removeStaleObjects(100)).resolves.toBe(0);
    expect(await used()).toBe(before + 1);
  });

  it('a job accepted before the bodies moved to the object store still reads its body from PostgreSQL, and ends without it', async () => {
    const cipher = new PayloadCipher(randomBytes(32));
    const legacy = new FileLifecycle({ prisma, stores, storage, cipher, now: () => now });
    const record = await legacy.open({ record: accepted(1), reservationId: await reserve(1) });
    expect(record.payloadKey).toBeNull();
    await expect(legacy.hasBody(record)).resolves.toBe(false);
    // As the previous version wrote it: sealed, in job_payloads.
    const sealed = cipher.seal(record.id, Buffer.from('{"type":"jdr"}'));
    await prisma.jobPayload.create({
      data: {
        fileId: record.id,
        nonce: new Uint8Array(sealed.nonce),
        ciphertext: new Uint8Array(sealed.ciphertext),
      },
    });
    await expect(legacy.hasBody(record)).resolves.toBe(true);
    expect((await legacy.readBody(record))!.toString()).toBe('{"type":"jdr"}');
    await legacy.store(record, generated(), 24);
    expect(await prisma.jobPayload.count({ where: { fileId: record.id } })).toBe(0);
  });

  it('the invariant check sees a queued file whose sealed body is gone, and a body with no file', async () => {
    const kinds = async () =>
      (await checkInvariants({ prisma, storage, now, processingLeaseSeconds: 3600 }))
        .filter((v) => v.kind.startsWith('payload_'))
        .map((v) => `${v.kind} ${v.subject}`);
    await expect(kinds()).resolves.toEqual([]);
    const queued = await lifecycle.open({
      record: accepted(1),
      reservationId: await reserve(1),
      body: Buffer.from('{}'),
    });
    await expect(kinds()).resolves.toEqual([]);
    await storage.remove(queued.payloadKey!);
    const stray = payloadKeyOf(newFileId());
    await storage.put(stray, Buffer.from('sealed'), 'application/octet-stream');
    await expect(kinds()).resolves.toEqual([`payload_left ${stray}`, `payload_missing ${queued.id}`]);
    // The job finds no body: nothing to resume from.
    await expect(lifecycle.readBody(queued)).resolves.toBeNull();
    await lifecycle.fail(queued.id, { error: { code: 'INTERNAL_ERROR' } } as never);
    await storage.remove(stray);
    await expect(kinds()).resolves.toEqual([]);
  });

  it.each(FILE_STATUSES.filter((s) => s !== 'processing'))(
    'leaves a %s file as it is when asked to store or fail it',
    async (status: FileStatus) => {
      const record = await lifecycle.open({ record: accepted(1), reservationId: await reserve(1) });
      await prisma.fileRecord.update({
        where: { id: record.id },
        data: { status: status.toUpperCase() as never },
      });
      const before = await stores.files.getFileRecord(record.id);
      await lifecycle.fail(record.id, { error: { code: 'INTERNAL_ERROR' } } as never);
      await lifecycle.store({ ...before!, status: 'processing' }, generated(), 24);
      await expect(stores.files.getFileRecord(record.id)).resolves.toMatchObject({
        status,
        sha256: before!.sha256,
        error: before!.error,
      });
    },
  );
});
