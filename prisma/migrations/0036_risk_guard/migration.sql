-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "riskCooldownSeconds" INTEGER NOT NULL DEFAULT 1800,
ADD COLUMN     "riskGuard" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "riskIpCards" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "riskIpCardsFor3ds" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "riskIpDeclines" INTEGER NOT NULL DEFAULT 4,
ADD COLUMN     "riskListSize" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "riskRuleCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "riskTargetDeclines" INTEGER NOT NULL DEFAULT 25,
ADD COLUMN     "riskWindowSeconds" INTEGER NOT NULL DEFAULT 600,
ADD COLUMN     "riskWorkspaceDeclines" INTEGER NOT NULL DEFAULT 200;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "risk" JSONB;

-- CreateTable
CREATE TABLE "RiskAttempt" (
    "id" BIGSERIAL NOT NULL,
    "workspaceId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "paymentId" UUID NOT NULL,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RiskAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RiskListEntry" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "list" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RiskListEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RiskRule" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "name" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "conditions" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RiskRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RiskAttempt_workspaceId_kind_key_at_idx" ON "RiskAttempt"("workspaceId", "kind", "key", "at");

-- CreateIndex
CREATE INDEX "RiskAttempt_blocked_idx" ON "RiskAttempt"("workspaceId", "kind", "key", "at") WHERE blocked;

-- CreateIndex
CREATE UNIQUE INDEX "RiskListEntry_workspaceId_list_kind_value_key" ON "RiskListEntry"("workspaceId", "list", "kind", "value");

-- CreateIndex
CREATE INDEX "RiskRule_workspaceId_position_idx" ON "RiskRule"("workspaceId", "position");

-- AddForeignKey
ALTER TABLE "RiskListEntry" ADD CONSTRAINT "RiskListEntry_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RiskRule" ADD CONSTRAINT "RiskRule_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
