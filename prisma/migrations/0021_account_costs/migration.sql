-- CreateEnum
CREATE TYPE "CostCards" AS ENUM ('any', 'on_us', 'not_on_us');

-- CreateEnum
CREATE TYPE "RoutingReason" AS ENUM ('token', 'rule', 'cost', 'default', 'saved_card');

-- AlterTable
ALTER TABLE "PaymentAccount" ADD COLUMN     "issuerCode" TEXT;

-- AlterTable
ALTER TABLE "RoutingRule" ADD COLUMN     "program" TEXT,
ADD COLUMN     "weight" INTEGER;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "routingDetail" JSONB,
ADD COLUMN     "routingReason" "RoutingReason";

-- CreateTable
CREATE TABLE "AccountCost" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "paymentAccountId" UUID NOT NULL,
    "program" TEXT NOT NULL DEFAULT '',
    "cards" "CostCards" NOT NULL DEFAULT 'any',
    "installmentCounts" INTEGER[],
    "commissionBp" INTEGER[],
    "fixedFee" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccountCost_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AccountCost_workspaceId_idx" ON "AccountCost"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "AccountCost_paymentAccountId_program_cards_key" ON "AccountCost"("paymentAccountId", "program", "cards");

-- AddForeignKey
ALTER TABLE "AccountCost" ADD CONSTRAINT "AccountCost_paymentAccountId_fkey" FOREIGN KEY ("paymentAccountId") REFERENCES "PaymentAccount"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Cost tables are part of the accounts a gateway process keeps in memory per settingsVersion
-- (migration 0012): a write to them bumps the version like a write to accounts or rules.
CREATE TRIGGER "AccountCost_settings_version" AFTER INSERT OR UPDATE OR DELETE ON "AccountCost"
  FOR EACH ROW EXECUTE FUNCTION bump_settings_version();
