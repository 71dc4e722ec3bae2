-- CreateIndex
CREATE INDEX "Product_workspaceId_createdAt_idx" ON "Product"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_workspaceId_createdAt_idx" ON "Notification"("workspaceId", "createdAt");
