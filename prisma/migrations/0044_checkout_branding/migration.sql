-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "brandColor" TEXT,
ADD COLUMN     "brandLogoUrl" TEXT,
ADD COLUMN     "embedOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[];
