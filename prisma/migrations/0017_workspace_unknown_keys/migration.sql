-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "ignoreUnknownKeys" BOOLEAN NOT NULL DEFAULT false;
