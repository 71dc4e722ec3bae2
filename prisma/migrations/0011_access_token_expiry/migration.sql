-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN     "expiresAt" TIMESTAMP(3);
