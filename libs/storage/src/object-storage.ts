import { Client } from 'minio';

export interface StorageConfig {
  /** http(s)://host[:port] of an S3-compatible endpoint (MinIO in production). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Generated files in S3 through the `minio` client, path-style (MinIO, and s3rver in tests).
 * Objects are always written with their size known: no multipart upload (s3rver has none, and
 * a generated file is at most tens of MB in memory anyway).
 */
export class ObjectStorage {
  readonly bucket: string;
  private readonly client: Client;

  constructor(config: StorageConfig) {
    const url = new URL(config.endpoint);
    const useSSL = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      region: config.region,
      pathStyle: true,
    });
    this.bucket = config.bucket;
  }

  /** Creates the bucket when missing (at boot). Safe when several replicas race. */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw e;
    }
  }

  async put(key: string, content: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, content, content.length, { 'Content-Type': contentType });
  }

  async get(key: string): Promise<Buffer> {
    const stream = await this.client.getObject(this.bucket, key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** An object's bytes, or null when there is none (a store that is down still throws). */
  async getIfExists(key: string): Promise<Buffer | null> {
    try {
      return await this.get(key);
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.statObject(this.bucket, key);
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  /** Deletes an object; deleting one that is already gone is not an error (sweeps run twice). */
  async remove(key: string): Promise<void> {
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  /** Every object under `prefix`, with its size and time (the invariant check, the reconciler). */
  async list(prefix: string): Promise<StoredObject[]> {
    const out: StoredObject[] = [];
    for await (const o of this.client.listObjectsV2(this.bucket, prefix, true)) {
      const item = o as { name?: string; size?: number; lastModified?: Date };
      if (item.name)
        out.push({ key: item.name, size: item.size ?? 0, lastModified: item.lastModified ?? new Date(0) });
    }
    return out;
  }

  /** For health checks: true when the endpoint answers and the bucket exists. */
  async ping(): Promise<boolean> {
    try {
      return await this.client.bucketExists(this.bucket);
    } catch {
      return false;
    }
  }
}

function isNotFound(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject';
}
