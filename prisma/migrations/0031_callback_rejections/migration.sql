-- CreateTable
CREATE TABLE "CallbackRejection" (
    "id" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "paymentId" UUID NOT NULL,
    "paymentAccountId" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "cause" TEXT NOT NULL,
    "reason" VARCHAR(255) NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CallbackRejection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CallbackRejection_paymentId_idx" ON "CallbackRejection"("paymentId");

-- CreateIndex
CREATE INDEX "CallbackRejection_paymentAccountId_at_idx" ON "CallbackRejection"("paymentAccountId", "at");

-- AddForeignKey
ALTER TABLE "CallbackRejection" ADD CONSTRAINT "CallbackRejection_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CallbackRejection" ADD CONSTRAINT "CallbackRejection_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
