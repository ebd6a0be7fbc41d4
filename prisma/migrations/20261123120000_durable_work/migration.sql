-- CreateEnum
CREATE TYPE "reservation_state" AS ENUM ('RESERVED', 'COMMITTED', 'RELEASED');

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "outcome" JSONB,
ADD COLUMN     "lang" TEXT NOT NULL DEFAULT 'en',
ADD COLUMN     "request_id" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "progress_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "lease_expires_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "unit_reservations" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "units" INTEGER NOT NULL,
    "state" "reservation_state" NOT NULL,
    "file_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "unit_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_payloads" (
    "file_id" TEXT NOT NULL,
    "nonce" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_payloads_pkey" PRIMARY KEY ("file_id")
);

-- CreateIndex
CREATE INDEX "files_status_progress_at_idx" ON "files"("status", "progress_at");

-- CreateIndex
CREATE UNIQUE INDEX "unit_reservations_file_id_key" ON "unit_reservations"("file_id");

-- CreateIndex
CREATE INDEX "unit_reservations_organization_id_month_state_idx" ON "unit_reservations"("organization_id", "month", "state");

-- CreateIndex
CREATE INDEX "unit_reservations_state_created_at_idx" ON "unit_reservations"("state", "created_at");

-- AddForeignKey
ALTER TABLE "unit_reservations" ADD CONSTRAINT "unit_reservations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_payloads" ADD CONSTRAINT "job_payloads_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;
