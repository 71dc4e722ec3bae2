-- CreateTable
CREATE TABLE "MasterKeyCheck" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "digest" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MasterKeyCheck_pkey" PRIMARY KEY ("id")
);
