// What each audited write did, in words (the audit trail's rows and its operation filter). The
// keys are the GraphQL mutations of the gateway's role table; a test fails when a mutation has no
// words here. A read by support staff is named by its query and shows as that name.
import type { Lang } from '../i18n.ts';

const OPERATIONS: Record<string, readonly [string, string]> = {
  securePayment: ['3D ödeme', '3-D Secure payment'],
  regularPayment: ['3D’siz ödeme', 'Non-3D payment'],
  orderPayment: ['Sipariş ödemesi', 'Order payment'],
  subscriptionPayment: ['Abonelik ödemesi', 'Subscription payment'],
  saveCard: ['Kart kaydı', 'Card saved'],
  refundPayment: ['İade', 'Refund'],
  cancelPayment: ['Ödeme iptali', 'Payment cancelled'],
  cancelSubscription: ['Abonelik iptali', 'Subscription cancelled'],
  createPaymentLink: ['Ödeme linki oluşturma', 'Payment link created'],
  updatePaymentLink: ['Ödeme linki değişikliği', 'Payment link changed'],
  saveProduct: ['Ürün kaydı', 'Product saved'],
  deleteSavedCard: ['Kayıtlı kart silme', 'Saved card deleted'],
  defaultSavedCard: ['Varsayılan kart seçimi', 'Default card chosen'],
  rotateApiCredentials: ['API anahtarı yenileme', 'API key rotated'],
  addWebhookAddress: ['Webhook adresi ekleme', 'Webhook address added'],
  deleteWebhookAddress: ['Webhook adresi silme', 'Webhook address deleted'],
  disableWebhookAddress: ['Webhook adresini devre dışı bırakma', 'Webhook address disabled'],
  enableWebhookAddress: ['Webhook adresini etkinleştirme', 'Webhook address enabled'],
  setWebhookEvents: ['Webhook olaylarını değiştirme', 'Webhook events changed'],
  rotateWebhookSecret: ['Webhook imza anahtarını yenileme', 'Webhook signing secret rotated'],
  sendTestWebhook: ['Deneme webhook bildirimi gönderme', 'Test webhook sent'],
  resendNotification: ['Bildirimi yeniden gönderme', 'Notification resent'],
  createChannel: ['Kanal ekleme', 'Channel added'],
  setUnknownKeys: ['Bilinmeyen alan kuralı', 'Unknown keys policy'],
  advanceTestClock: ['Test saatini ilerletme', 'Test clock advanced'],
  createPaymentAccount: ['Ödeme hesabı ekleme', 'Payment account added'],
  updatePaymentAccountConnection: ['Hesap bağlantısı değişikliği', 'Account connection changed'],
  setDefaultPaymentAccount: ['Varsayılan hesap seçimi', 'Default account chosen'],
  setAccountCosts: ['Hesap maliyetleri', 'Account costs set'],
  setAccountIssuerCode: ['Hesabın banka kodu', 'Account issuer code set'],
  setInstallmentPlan: ['Taksit planı', 'Installment plan set'],
  setBinSource: ['BIN kaynağı seçimi', 'BIN source chosen'],
  addRoutingRule: ['Yönlendirme kuralı ekleme', 'Routing rule added'],
  removeRoutingRule: ['Yönlendirme kuralı silme', 'Routing rule removed'],
  setRoutingResilience: ['Yönlendirme dayanıklılığı', 'Routing resilience set'],
  setCheckoutSettings: ['Ödeme sayfası ayarları', 'Checkout settings set'],
  setRiskGuard: ['Kart deneme korumasının ayarı', 'Card-testing guard set'],
  saveRiskRule: ['Risk kuralı kaydı', 'Risk rule saved'],
  removeRiskRule: ['Risk kuralının silinmesi', 'Risk rule removed'],
  addRiskListEntry: ['Risk listesine ekleme', 'Risk list entry added'],
  removeRiskListEntry: ['Risk listesinden çıkarma', 'Risk list entry removed'],
  setWorkspaceMode: ['Mod değişikliği', 'Mode changed'],
  createAccessToken: ['Erişim anahtarı oluşturma', 'Access token created'],
  revokeAccessToken: ['Erişim anahtarı iptali', 'Access token revoked'],
  inviteMember: ['Ekibe davet', 'Member invited'],
  resendInvitation: ['Daveti yeniden gönderme', 'Invitation resent'],
  cancelInvitation: ['Davet iptali', 'Invitation cancelled'],
  acceptInvitation: ['Davet kabulü', 'Invitation accepted'],
  changeMemberRole: ['Üye rolü değişikliği', 'Member role changed'],
  removeMember: ['Üyeyi ekipten çıkarma', 'Member removed'],
  revokeSession: ['Oturum kapatma', 'Session ended'],
  requestPasswordReset: ['Parola sıfırlama isteği', 'Password reset asked'],
  resetPassword: ['Parola sıfırlama', 'Password reset'],
  startTwoFactor: ['İki adımlı doğrulama kurulumu başladı', 'Two-factor setup started'],
  confirmTwoFactor: ['İki adımlı doğrulama açıldı', 'Two-factor turned on'],
  disableTwoFactor: ['İki adımlı doğrulama kapatıldı', 'Two-factor turned off'],
  confirmSecondFactor: ['Doğrulama kodu girildi', 'Authentication code given'],
  setTwoFactorRequired: ['İki adımlı doğrulama zorunluluğu', 'Two-factor requirement set'],
  changePassword: ['Parola değişikliği', 'Password changed'],
};

/** Entries that are no mutation: a person's sign-in (done, failed or locked); what only the CLI changes (src/cli/audit.ts). */
const EVENTS: Record<string, readonly [string, string]> = {
  signIn: ['Giriş', 'Sign-in'],
  createWorkspace: ['Çalışma alanı oluşturma (CLI)', 'Workspace created (CLI)'],
  setWorkspacePlan: ['Plan değişikliği (CLI)', 'Plan changed (CLI)'],
  setWorkspaceTimeZone: ['Saat dilimi değişikliği (CLI)', 'Time zone changed (CLI)'],
  setRateLimits: ['İstek sınırları (CLI)', 'Request limits set (CLI)'],
  setWorkspaceSettings: ['Çalışma alanı ayarları (CLI)', 'Workspace settings set (CLI)'],
};

/** The audited mutations that have words (every one of the role table). */
export const OPERATION_NAMES = Object.keys(OPERATIONS);
/** What the filter offers: the mutations, the sign-ins and the CLI's own changes. */
export const FILTER_OPERATIONS = [...OPERATION_NAMES, ...Object.keys(EVENTS)];

/** An operation in words; one without any (a support read's query name) as itself. */
export function operationLabel(operation: string | null, lang: Lang): string {
  if (!operation) return '—';
  const words = OPERATIONS[operation] ?? EVENTS[operation];
  return words ? words[lang === 'tr' ? 0 : 1] : operation;
}
