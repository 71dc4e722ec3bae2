-- CreateEnum
CREATE TYPE "AccountHealth" AS ENUM ('healthy', 'degraded', 'probing');

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "cascadeExtraAttempts" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN     "healthCooldownSeconds" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "healthFailurePercent" INTEGER NOT NULL DEFAULT 50,
ADD COLUMN     "healthMinFailures" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "healthProbePayments" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "healthWindowSeconds" INTEGER NOT NULL DEFAULT 60;

-- AlterTable
ALTER TABLE "PaymentAccount" ADD COLUMN     "health" "AccountHealth" NOT NULL DEFAULT 'healthy',
ADD COLUMN     "healthChangedAt" TIMESTAMP(3),
ADD COLUMN     "healthProbesLeft" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "attemptNumber" INTEGER NOT NULL DEFAULT 1;
