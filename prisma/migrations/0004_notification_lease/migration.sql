-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "leasedUntil" TIMESTAMP(3);
