-- DropIndex
DROP INDEX "Customer_workspaceId_idx";

-- CreateIndex
CREATE INDEX "Customer_workspaceId_createdAt_idx" ON "Customer"("workspaceId", "createdAt");
