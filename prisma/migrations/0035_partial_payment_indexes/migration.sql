-- DropIndex
DROP INDEX "Payment_threeDsToken_key";

-- DropIndex
DROP INDEX "Payment_orderId_idx";

-- DropIndex
DROP INDEX "Payment_subscriptionId_idx";

-- DropIndex
DROP INDEX "Payment_periodId_idx";

-- DropIndex
DROP INDEX "Payment_storedCardId_idx";

-- DropIndex
DROP INDEX "Payment_paidWithCardId_idx";

-- CreateIndex
CREATE UNIQUE INDEX "Payment_threeDsToken_key" ON "Payment"("threeDsToken") WHERE ("threeDsToken" IS NOT NULL);

-- CreateIndex
CREATE INDEX "Payment_orderId_idx" ON "Payment"("orderId") WHERE ("orderId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "Payment_subscriptionId_idx" ON "Payment"("subscriptionId") WHERE ("subscriptionId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "Payment_periodId_idx" ON "Payment"("periodId") WHERE ("periodId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "Payment_storedCardId_idx" ON "Payment"("storedCardId") WHERE ("storedCardId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "Payment_paidWithCardId_idx" ON "Payment"("paidWithCardId") WHERE ("paidWithCardId" IS NOT NULL);
