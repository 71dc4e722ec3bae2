-- AlterTable
ALTER TABLE "PaymentAccount" ADD COLUMN     "installmentCounts" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "installmentPrograms" TEXT[] DEFAULT ARRAY[]::TEXT[];
