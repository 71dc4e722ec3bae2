-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "cardExpiryMonth" TEXT,
ADD COLUMN     "cardExpiryYear" TEXT;

