-- AlterTable
ALTER TABLE "WebhookAddress" ADD COLUMN     "previousSecretEncrypted" TEXT,
ADD COLUMN     "previousSecretUntil" TIMESTAMP(3),
ADD COLUMN     "secretRotatedAt" TIMESTAMP(3),
ADD COLUMN     "signingSecretEncrypted" TEXT;
