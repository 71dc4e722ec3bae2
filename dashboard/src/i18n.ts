// Turkish and English labels: the reader's choice (kept in localStorage), else the browser's
// language, else Turkish.
import { createContext, useContext } from 'react';

const tr = {
  title: 'Ödeme paneli', signIn: 'Giriş yap', signOut: 'Çıkış yap', token: 'Panel erişim anahtarı',
  signInHelp: 'CLI ile oluşturun: npm run gateway -- token create --workspace <slug>', badToken: 'Anahtar geçersiz.',
  payments: 'Ödemeler', support: 'Destek görünümü (salt okunur)', workspace: 'Çalışma alanı',
  status: 'Durum', paymentStatus: 'Para durumu', any: 'Hepsi', from: 'Başlangıç', to: 'Bitiş', reference: 'Referans',
  filter: 'Filtrele', next: 'Sonraki', previous: 'Önceki', amount: 'Tutar', created: 'Oluşturulma', card: 'Kart',
  none: 'Kayıt yok.', back: 'Geri', refunded: 'İade edilen', installments: 'Taksit', conversion: 'Kur dönüşümü',
  customer: 'Müşteri', refund: 'İade et', refundAmount: 'İade tutarı', cancel: 'İptal et', confirm: 'Onayla',
  dismiss: 'Vazgeç', confirmRefund: '{amount} {currency} iade edilsin mi?', confirmCancel: 'Ödemenin tamamı iptal edilsin mi?',
  done: 'İşlem başarılı.', refunds: 'İadeler', notifications: 'Bildirimler', attempts: 'Deneme', live: 'Canlı',
  language: 'Dil', mode: 'Mod', error: 'Hata',
  webhooks: 'Webhooklar', webhookAddresses: 'Webhook adresleri', events: 'Olaylar', allEvents: 'Tüm olaylar',
  enabled: 'Etkin', disabled: 'Devre dışı', enable: 'Etkinleştir', disable: 'Devre dışı bırak', delete: 'Sil',
  actions: 'İşlemler', add: 'Ekle', addAddress: 'Adres ekle', confirmDelete: '{name} silinsin mi?', resend: 'Yeniden gönder',
  nextAttempt: 'Sonraki deneme', attemptList: 'Denemeler', recordToken: 'Kayıt anahtarı', refresh: 'Yenile',
  links: 'Ödeme linkleri', newLink: 'Yeni ödeme linki', open: 'Açık', closed: 'Kapalı', amountType: 'Tutar türü',
  amountType_fixed: 'Sabit (ürünlerin toplamı)', amountType_custom: 'Ödeyen girer', amountType_predefined: 'Sunulan tutarlar',
  amountType_predefined_and_custom: 'Sunulan tutarlar veya ödeyen girer', subtotal: 'Ara toplam', tax: 'KDV', currency: 'Para birimi',
  itemName: 'Ürün adı', predefinedAmounts: 'Sunulan tutarlar', taxRate: 'KDV oranı (%)', taxMode: 'KDV uygulaması', taxInclusive: 'Tutara dahil',
  taxExclusive: 'Tutara eklenir', description: 'Açıklama', expiresOn: 'Son geçerlilik günü', checkoutPage: 'Ödeme sayfası', items: 'Ürünler',
  item: 'Ürün', quantity: 'Adet', unitAmount: 'Birim fiyat (KDV dahil)', remove: 'Kaldır', addItem: 'Ürün ekle',
  payerCurrencies: 'Ödeyenin seçebileceği diğer para birimleri', onePerLine: 'Her satıra bir tutar, örn. 100.00',
  emailsCustomer: 'Her başarılı ödemede ödeyene e-posta gönder', create: 'Oluştur', closeLink: 'Linki kapat',
  confirmCloseLink: 'Link kapatılsın mı? Kapalı link ödeme almaz.', payment: 'Ödeme',
  products: 'Ürünler', orders: 'Siparişler', subscriptions: 'Abonelikler', onSale: 'Satışta', offSale: 'Satışta değil',
  name: 'Ad', productType: 'Tür', simple: 'Tek seferlik', recurring: 'Tekrarlayan', monthly: 'aylık', yearly: 'yıllık',
  updated: 'Güncellenme', saveProduct: 'Ürün kaydet', channel: 'Kanal', productReference: 'Ürün kodu', period: 'Dönem',
  save: 'Kaydet', paidAt: 'Ödenme', periodEnd: 'Dönem sonu', cancelledAt: 'İptal', endedAt: 'Bitiş',
  settings: 'Ayarlar', apiKeys: 'API anahtarı', rotateKeys: 'Anahtarı ve gizli anahtarı yenile',
  confirmRotate: 'Mevcut API anahtarı hemen geçersiz olur. Yeni anahtar ve gizli anahtar üretilsin mi?', newSecret: 'Yeni API bilgileri',
  secretOnce: 'Gizli anahtar yalnızca şimdi gösteriliyor; güvenli bir yere kaydedin.', apiSecret: 'Gizli anahtar', secretSaved: 'Kaydettim, gizle',
  testMode: 'Test', switchToLive: 'Canlı moda geç', switchToTest: 'Test moduna geç', confirmLive: 'Çalışma alanı canlı moda geçsin mi? Ödemeler gerçek olur.',
  unknownKeys: 'Bilinmeyen alanlar', unknownKeysReject: 'İşlemin tanımadığı bir alan 422 ile reddedilir.',
  unknownKeysIgnore: 'İşlemin tanımadığı alanlar yok sayılır (başka yerde tanınan bir alan yine reddedilir).',
  unknownKeysToIgnore: 'Bilinmeyen alanları yok say', unknownKeysToReject: 'Bilinmeyen alanları reddet',
  confirmTest: 'Çalışma alanı test moduna geçsin mi?', channels: 'Kanallar', channelName: 'Kanal adı', addChannel: 'Kanal ekle',
  paymentAccounts: 'Ödeme hesapları', capabilities: 'Yetenekler', defaultAccount: 'Varsayılan', makeDefault: 'Varsayılan yap',
  addAccount: 'Ödeme hesabı ekle', accountName: 'Hesap adı', routingRules: 'Yönlendirme kuralları',
  routingHelp: 'Kurallar sırayla denenir; ilk eşleşen kural hesabı seçer, hiçbiri eşleşmezse varsayılan hesap kullanılır.',
  anyCard: 'Her kart', issuer: 'Banka kodu', addRule: 'Kural ekle', ruleAccount: 'Seçilecek hesap', scheme: 'Kart şeması', cardType: 'Kart tipi',
  cardLastFour: 'Kartın son 4 hanesi', binPrefix: 'BIN öneki', minAmount: 'En düşük tutar', maxAmount: 'En yüksek tutar',
  cancelSubscription: 'Aboneliği iptal et', confirmCancelSubscription: 'Abonelik iptal edilsin mi? Ödenmiş dönem sonuna kadar sürer; iade yapılmaz.',
};
type Labels = typeof tr;
const en: Labels = {
  title: 'Payments dashboard', signIn: 'Sign in', signOut: 'Sign out', token: 'Dashboard access token',
  signInHelp: 'Create one with the CLI: npm run gateway -- token create --workspace <slug>', badToken: 'The token is not valid.',
  payments: 'Payments', support: 'Support view (read-only)', workspace: 'Workspace',
  status: 'Status', paymentStatus: 'Money status', any: 'Any', from: 'From', to: 'To', reference: 'Reference',
  filter: 'Filter', next: 'Next', previous: 'Previous', amount: 'Amount', created: 'Created', card: 'Card',
  none: 'Nothing here.', back: 'Back', refunded: 'Refunded', installments: 'Installments', conversion: 'Conversion',
  customer: 'Customer', refund: 'Refund', refundAmount: 'Refund amount', cancel: 'Cancel payment', confirm: 'Confirm',
  dismiss: 'Dismiss', confirmRefund: 'Refund {amount} {currency}?', confirmCancel: 'Cancel the whole payment?',
  done: 'Done.', refunds: 'Refunds', notifications: 'Notifications', attempts: 'Attempts', live: 'Live',
  language: 'Language', mode: 'Mode', error: 'Error',
  webhooks: 'Webhooks', webhookAddresses: 'Webhook addresses', events: 'Events', allEvents: 'All events',
  enabled: 'Enabled', disabled: 'Disabled', enable: 'Enable', disable: 'Disable', delete: 'Delete',
  actions: 'Actions', add: 'Add', addAddress: 'Add an address', confirmDelete: 'Delete {name}?', resend: 'Resend',
  nextAttempt: 'Next attempt', attemptList: 'Attempts', recordToken: 'Record token', refresh: 'Refresh',
  links: 'Payment links', newLink: 'New payment link', open: 'Open', closed: 'Closed', amountType: 'Amount type',
  amountType_fixed: 'Fixed (sum of the items)', amountType_custom: 'Typed by the payer', amountType_predefined: 'Offered amounts',
  amountType_predefined_and_custom: 'Offered amounts or typed by the payer', subtotal: 'Subtotal', tax: 'VAT', currency: 'Currency',
  itemName: 'Item name', predefinedAmounts: 'Offered amounts', taxRate: 'VAT rate (%)', taxMode: 'How VAT applies', taxInclusive: 'Included in the amount',
  taxExclusive: 'Added to the amount', description: 'Description', expiresOn: 'Last valid day', checkoutPage: 'Payment page', items: 'Items',
  item: 'Item', quantity: 'Quantity', unitAmount: 'Unit price (VAT included)', remove: 'Remove', addItem: 'Add an item',
  payerCurrencies: 'Other currencies the payer may choose', onePerLine: 'One amount per line, e.g. 100.00',
  emailsCustomer: 'E-mail the payer on every successful payment', create: 'Create', closeLink: 'Close the link',
  confirmCloseLink: 'Close the link? A closed link takes no payments.', payment: 'Payment',
  products: 'Products', orders: 'Orders', subscriptions: 'Subscriptions', onSale: 'On sale', offSale: 'Off sale',
  name: 'Name', productType: 'Type', simple: 'One-off', recurring: 'Recurring', monthly: 'monthly', yearly: 'yearly',
  updated: 'Updated', saveProduct: 'Save a product', channel: 'Channel', productReference: 'Product code', period: 'Period',
  save: 'Save', paidAt: 'Paid', periodEnd: 'Period end', cancelledAt: 'Cancelled', endedAt: 'Ended',
  settings: 'Settings', apiKeys: 'API key', rotateKeys: 'Rotate the key and secret',
  confirmRotate: 'The current API key stops working at once. Issue a new key and secret?', newSecret: 'New API credentials',
  secretOnce: 'The secret is shown only now; store it somewhere safe.', apiSecret: 'Secret', secretSaved: 'Stored it, hide',
  testMode: 'Test', switchToLive: 'Switch to live mode', switchToTest: 'Switch to test mode', confirmLive: 'Switch the workspace to live mode? Payments become real.',
  unknownKeys: 'Unknown keys', unknownKeysReject: 'A key the operation does not know is refused with 422.',
  unknownKeysIgnore: 'Keys the operation does not know are ignored (a key it knows elsewhere in the body is still refused).',
  unknownKeysToIgnore: 'Ignore unknown keys', unknownKeysToReject: 'Refuse unknown keys',
  confirmTest: 'Switch the workspace to test mode?', channels: 'Channels', channelName: 'Channel name', addChannel: 'Add a channel',
  paymentAccounts: 'Payment accounts', capabilities: 'Capabilities', defaultAccount: 'Default', makeDefault: 'Make default',
  addAccount: 'Add a payment account', accountName: 'Account name', routingRules: 'Routing rules',
  routingHelp: 'Rules are tried in order; the first match picks the account, else the default account is used.',
  anyCard: 'Any card', issuer: 'Issuer code', addRule: 'Add a rule', ruleAccount: 'Account to pick', scheme: 'Card scheme', cardType: 'Card type',
  cardLastFour: 'Card last four', binPrefix: 'BIN prefix', minAmount: 'Minimum amount', maxAmount: 'Maximum amount',
  cancelSubscription: 'Cancel the subscription', confirmCancelSubscription: 'Cancel the subscription? A paid period runs to its end; nothing is refunded.',
};

export type Lang = 'tr' | 'en';
export const LABELS: Record<Lang, Labels> = { tr, en };
export function initialLang(): Lang {
  const stored = localStorage.getItem('dashboard.lang');
  if (stored === 'en' || stored === 'tr') return stored;
  return navigator.language.toLowerCase().startsWith('tr') ? 'tr' : 'en';
}
export const LangContext = createContext<{ lang: Lang; t: Labels }>({ lang: 'tr', t: tr });
export const useT = () => useContext(LangContext);
export const fill = (s: string, v: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k: string) => v[k] ?? '');
