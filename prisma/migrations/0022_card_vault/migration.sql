-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "pendingCardAccountId" UUID;
