-- Sealed request bodies of queued generations move to the object store (payloads/generate/<file id>);
-- the record keeps the key while its job waits. job_payloads stays, read-only, for jobs accepted
-- before the upgrade.

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "payload_key" TEXT;
