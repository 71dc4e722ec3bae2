// Labels of the audit trail's sent-data panel (merged into i18n.ts).
export const teamLabelsTr = {
  auditSentShow: 'Ayrıntılar', auditSentFields: '{n} alan', auditSentNone: 'Hiçbir şey gönderilmedi.', auditSentTitle: 'Gönderilenler: {operation}',
  auditSentJson: 'JSON olarak kopyala', close: 'Kapat',
};
export type TeamLabels = typeof teamLabelsTr;
export const teamLabelsEn: TeamLabels = {
  auditSentShow: 'Details', auditSentFields: '{n} fields', auditSentNone: 'Nothing was sent.', auditSentTitle: 'Sent: {operation}',
  auditSentJson: 'Copy as JSON', close: 'Close',
};
