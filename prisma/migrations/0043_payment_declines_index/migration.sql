-- CreateIndex
CREATE INDEX "Payment_declines_idx" ON "Payment"("workspaceId", "createdAt") WHERE (status = 'failed'::"PaymentStatus" AND "paymentAccountId" IS NOT NULL);
