-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "Customer_search_trgm_idx" ON "Customer" USING GIN ("firstname" gin_trgm_ops, "lastname" gin_trgm_ops, "email" gin_trgm_ops, "channelReference" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Payment_workspaceId_cardLastFourDigits_idx" ON "Payment"("workspaceId", "cardLastFourDigits");

-- CreateIndex
CREATE INDEX "Payment_workspaceId_amount_idx" ON "Payment"("workspaceId", "amount");

-- CreateIndex
CREATE INDEX "Order_workspaceId_channelReference_idx" ON "Order"("workspaceId", "channelReference");

-- CreateIndex
CREATE INDEX "Order_workspaceId_amount_idx" ON "Order"("workspaceId", "amount");

-- CreateIndex
CREATE INDEX "Subscription_workspaceId_channelReference_idx" ON "Subscription"("workspaceId", "channelReference");

-- CreateIndex
CREATE INDEX "OutboxEvent_workspaceId_transactionToken_idx" ON "OutboxEvent"("workspaceId", "transactionToken");
