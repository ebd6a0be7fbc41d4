-- AlterTable
ALTER TABLE "unit_reservations" ADD COLUMN     "mode" "key_mode" NOT NULL DEFAULT 'LIVE';

-- AlterTable
ALTER TABLE "usage_counters" ADD COLUMN     "test_rows" INTEGER NOT NULL DEFAULT 0;
