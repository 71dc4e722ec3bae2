-- AlterEnum
ALTER TYPE "RefundStatus" ADD VALUE 'pending';

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "pendingCardReference" TEXT;
