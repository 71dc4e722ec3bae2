-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "Customer_search_trgm_idx" ON "Customer" USING GIN ("firstname" gin_trgm_ops, "lastname" gin_trgm_ops, "email" gin_trgm_ops, "channelReference" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Payment_workspaceId_cardLastFourDigits_idx" ON "Payment"("workspaceId", "cardLastFourDigits");

-- CreateIndex
CREATE INDEX "Payment_workspaceId_amount_idx" ON "Payment"("workspaceId", "amount");

-- CreateIndex
CREATE INDEX "Payment_customerId_createdAt_idx" ON "Payment"("customerId", "createdAt");

-- CreateIndex
CREATE INDEX "Order_workspaceId_channelReference_idx" ON "Order"("workspaceId", "channelReference");

-- CreateIndex
CREATE INDEX "Order_workspaceId_amount_idx" ON "Order"("workspaceId", "amount");

-- CreateIndex
CREATE INDEX "Order_customerId_createdAt_idx" ON "Order"("customerId", "createdAt");

-- CreateIndex
CREATE INDEX "Subscription_workspaceId_channelReference_idx" ON "Subscription"("workspaceId", "channelReference");

-- CreateIndex
CREATE INDEX "Subscription_customerId_createdAt_idx" ON "Subscription"("customerId", "createdAt");

-- CreateIndex
CREATE INDEX "OutboxEvent_workspaceId_transactionToken_idx" ON "OutboxEvent"("workspaceId", "transactionToken");
