-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "binSourceAccountId" UUID;

-- AlterTable
ALTER TABLE "PaymentAccount" ADD COLUMN     "credentials" TEXT,
ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "providerErrorCode" TEXT,
ADD COLUMN     "providerErrorMessage" TEXT,
ADD COLUMN     "threeDsRedirect" JSONB;
