-- DropIndex
DROP INDEX "Payment_periodId_key";

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "testClockOffsetMs" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "subscriptionId" UUID;

-- CreateIndex
CREATE INDEX "Payment_periodId_idx" ON "Payment"("periodId");

-- CreateIndex
CREATE INDEX "Subscription_status_idx" ON "Subscription"("status");

