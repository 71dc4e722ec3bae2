// Labels of the payments list, the payment page and the overview's states (merged into i18n.ts).
export const paymentLabelsTr = {
  paymentsEmpty: 'Henüz ödeme yok. API, sipariş, abonelik veya link ile alınan ödemeler burada görünür.',
  paymentNotFound: 'Bu ödeme bulunamadı. Bağlantıyı kontrol edin veya ödemeler listesinden açın.',
  completedAt: 'Sonuçlanma', source: 'Kaynak', securityType: 'Güvenlik', refundable: 'İade edilebilir',
  refundUpTo: 'En fazla {amount} iade edilebilir.', refundAll: 'Kalanın tamamını iade et ({amount})',
  confirmRefundMoney: '{amount} iade edilsin mi?', refundNothingLeft: 'İade edilebilir tutar kalmadı.',
  refundType: 'Tür', declineReason: 'Neden',
};
export type PaymentLabels = typeof paymentLabelsTr;
export const paymentLabelsEn: PaymentLabels = {
  paymentsEmpty: 'No payments yet. Payments taken through the API, orders, subscriptions or links appear here.',
  paymentNotFound: 'This payment was not found. Check the address, or open it from the payments list.',
  completedAt: 'Completed', source: 'Source', securityType: 'Security', refundable: 'Refundable',
  refundUpTo: 'Up to {amount} can be refunded.', refundAll: 'Refund all that is left ({amount})',
  confirmRefundMoney: 'Refund {amount}?', refundNothingLeft: 'Nothing is left to refund.',
  refundType: 'Type', declineReason: 'Reason',
};
