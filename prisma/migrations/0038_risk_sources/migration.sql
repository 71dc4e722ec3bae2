-- CreateTable
CREATE TABLE "RiskSource" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "paymentId" UUID NOT NULL,
    "blockedAt" TIMESTAMP(3) NOT NULL,
    "blocks" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "RiskSource_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RiskSource_workspaceId_blockedAt_idx" ON "RiskSource"("workspaceId", "blockedAt");

-- AddForeignKey
ALTER TABLE "RiskSource" ADD CONSTRAINT "RiskSource_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
