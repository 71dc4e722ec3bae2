-- DropForeignKey
ALTER TABLE "ProviderAttempt" DROP CONSTRAINT "ProviderAttempt_paymentId_fkey";

-- DropForeignKey
ALTER TABLE "ProviderAttempt" DROP CONSTRAINT "ProviderAttempt_paymentAccountId_fkey";
