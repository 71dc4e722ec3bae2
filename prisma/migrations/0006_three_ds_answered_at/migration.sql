-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "threeDsAnsweredAt" TIMESTAMP(3);

