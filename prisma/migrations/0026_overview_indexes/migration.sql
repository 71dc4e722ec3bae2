-- CreateIndex
CREATE INDEX "Payment_workspaceId_status_createdAt_currency_amount_idx" ON "Payment"("workspaceId", "status", "createdAt", "currency", "amount");

-- CreateIndex
CREATE INDEX "Refund_createdAt_idx" ON "Refund"("createdAt");
