-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "requestId" TEXT;
