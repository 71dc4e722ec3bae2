-- CreateEnum
CREATE TYPE "ProviderOperation" AS ENUM ('start3D', 'complete3D', 'charge', 'paymentStatus', 'refund', 'refundStatus', 'cancel', 'storeCard', 'deleteCard');

-- CreateEnum
CREATE TYPE "AttemptOutcome" AS ENUM ('succeeded', 'redirect', 'declined', 'error', 'timeout', 'unknown');

-- CreateTable
CREATE TABLE "ProviderAttempt" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "paymentId" UUID,
    "refundId" UUID,
    "paymentAccountId" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "operation" "ProviderOperation" NOT NULL,
    "idempotencyKey" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "outcome" "AttemptOutcome" NOT NULL,
    "providerCode" TEXT,
    "providerMessage" VARCHAR(255),
    "errorCode" TEXT,

    CONSTRAINT "ProviderAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProviderAttempt_paymentId_startedAt_idx" ON "ProviderAttempt"("paymentId", "startedAt");

-- CreateIndex
CREATE INDEX "ProviderAttempt_paymentAccountId_startedAt_idx" ON "ProviderAttempt"("paymentAccountId", "startedAt");

-- AddForeignKey
ALTER TABLE "ProviderAttempt" ADD CONSTRAINT "ProviderAttempt_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderAttempt" ADD CONSTRAINT "ProviderAttempt_paymentAccountId_fkey" FOREIGN KEY ("paymentAccountId") REFERENCES "PaymentAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;
