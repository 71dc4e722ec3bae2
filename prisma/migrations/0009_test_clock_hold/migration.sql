-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "testClockBusyUntil" TIMESTAMP(3);
