-- CreateIndex
CREATE INDEX "Payment_storedCardId_idx" ON "Payment"("storedCardId");

-- CreateIndex
CREATE INDEX "Payment_paidWithCardId_idx" ON "Payment"("paidWithCardId");

-- CreateIndex
CREATE INDEX "Notification_addressId_idx" ON "Notification"("addressId");
