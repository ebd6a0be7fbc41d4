import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LOCAL_S3_CREDENTIALS, ObjectStorage, startLocalS3, type LocalS3 } from './index';

// Against a real S3 endpoint on loopback (s3rver), through the same client as production.
describe('ObjectStorage', () => {
  let s3: LocalS3;
  let dir: string;
  let storage: ObjectStorage;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ppfile-s3-'));
    s3 = await startLocalS3({ directory: dir });
    storage = new ObjectStorage({
      endpoint: s3.endpoint,
      ...LOCAL_S3_CREDENTIALS,
      bucket: 'ppfile-test',
      region: 'us-east-1',
    });
  });
  afterAll(async () => {
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the bucket once, then finds it', async () => {
    expect(await storage.ping()).toBe(false);
    await storage.ensureBucket();
    await storage.ensureBucket();
    expect(await storage.ping()).toBe(true);
  });

  it('stores bytes and reads them back identical', async () => {
    const bytes = Buffer.from('ID_DECLARATION|NOM\r\nA|É\r\n', 'utf8');
    await storage.put('files/a.csv', bytes, 'text/csv; charset=utf-8');
    expect(await storage.exists('files/a.csv')).toBe(true);
    expect((await storage.get('files/a.csv')).equals(bytes)).toBe(true);
  });

  it('removes objects, and removing a missing one is not an error', async () => {
    await storage.put('files/b.csv', Buffer.from('x'), 'text/csv');
    await storage.remove('files/b.csv');
    expect(await storage.exists('files/b.csv')).toBe(false);
    await expect(storage.remove('files/b.csv')).resolves.toBeUndefined();
  });

  it('reports an unreachable endpoint as down', async () => {
    const down = new ObjectStorage({
      endpoint: 'http://127.0.0.1:9',
      ...LOCAL_S3_CREDENTIALS,
      bucket: 'x',
      region: 'us-east-1',
    });
    expect(await down.ping()).toBe(false);
  });
});
