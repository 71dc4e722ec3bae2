// Every status the dashboard shows, per kind: its tone (the badge's colour) and its words in both
// languages. One table, so a screen never prints a raw enum value and a new value fails the test
// that reads every enum of schema.graphql.
import type { Lang } from '../i18n.ts';

/** What a status means to the reader; the colour follows it, the text always says it. */
export type Tone = 'success' | 'warning' | 'danger' | 'neutral' | 'info';
type Entry = readonly [Tone, string, string]; // tone, Turkish, English

const S = {
  /** PaymentStatus */
  payment: {
    started: ['info', 'Başladı (3D bekleniyor)', 'Started (awaiting 3D)'],
    successful: ['success', 'Başarılı', 'Successful'],
    failed: ['danger', 'Başarısız', 'Failed'],
    expired: ['neutral', 'Süresi doldu', 'Expired'],
    unresolved: ['warning', 'Belirsiz (yanıt yok)', 'Unresolved (no answer)'],
  },
  /** PaymentMoneyStatus */
  money: {
    paid: ['success', 'Ödendi', 'Paid'],
    partially_refunded: ['warning', 'Kısmen iade edildi', 'Partially refunded'],
    refunded: ['neutral', 'İade edildi', 'Refunded'],
    cancelled: ['neutral', 'İptal edildi', 'Cancelled'],
  },
  /** OrderStatus */
  order: {
    open: ['info', 'Açık', 'Open'],
    paid: ['success', 'Ödendi', 'Paid'],
  },
  /** SubscriptionStatus */
  subscription: {
    pending: ['info', 'Bekliyor', 'Pending'],
    active: ['success', 'Etkin', 'Active'],
    past_due: ['danger', 'Ödemesi gecikti', 'Past due'],
    cancelled: ['neutral', 'İptal edildi', 'Cancelled'],
    completed: ['neutral', 'Tamamlandı', 'Completed'],
  },
  /** A customer's saved card: the default one is charged for renewals */
  savedCard: {
    default: ['success', 'Varsayılan', 'Default'],
  },
  /** A subscription period: unpaid, paid, failed */
  period: {
    unpaid: ['info', 'Ödenmedi', 'Unpaid'],
    paid: ['success', 'Ödendi', 'Paid'],
    failed: ['danger', 'Tahsil edilemedi', 'Failed'],
  },
  /** NotificationStatus (webhook deliveries) */
  notification: {
    // pending: attempts scheduled (also after a failed one); failed: the automatic attempts ended;
    // dropped: its address was disabled or deleted before it was delivered.
    pending: ['info', 'Bekliyor', 'Pending'],
    delivered: ['success', 'Teslim edildi', 'Delivered'],
    failed: ['danger', 'Başarısız (denemeler bitti)', 'Failed (attempts ended)'],
    dropped: ['neutral', 'Bırakıldı (adres kapalı)', 'Dropped (address off)'],
  },
  /** A payment link: open (takes payments) or closed */
  link: {
    open: ['success', 'Açık', 'Open'],
    closed: ['neutral', 'Kapalı', 'Closed'],
  },
  /** A payment link's amount type */
  linkAmountType: {
    fixed: ['neutral', 'Sabit (ürünlerin toplamı)', 'Fixed (sum of the items)'],
    custom: ['neutral', 'Ödeyen girer', 'Typed by the payer'],
    predefined: ['neutral', 'Sunulan tutarlar', 'Offered amounts'],
    predefined_and_custom: ['neutral', 'Sunulan tutarlar veya ödeyen girer', 'Offered amounts or typed by the payer'],
  },
  /** A product: on sale (offered to new orders and subscriptions) or not */
  product: {
    on_sale: ['success', 'Satışta', 'On sale'],
    off_sale: ['neutral', 'Satışta değil', 'Off sale'],
  },
  /** A webhook address: notifications sent to it or not */
  webhookAddress: {
    enabled: ['success', 'Etkin', 'Enabled'],
    disabled: ['neutral', 'Devre dışı', 'Disabled'],
  },
  /** A link payment: pending, paid, failed */
  linkPayment: {
    pending: ['info', 'Bekliyor', 'Pending'],
    paid: ['success', 'Ödendi', 'Paid'],
    failed: ['danger', 'Başarısız', 'Failed'],
  },
  /** A link's payment attempt (LinkTransaction): started shows as pending */
  linkTransaction: {
    pending: ['info', 'Bekliyor (3D açık)', 'Pending (3D open)'],
    successful: ['success', 'Başarılı', 'Successful'],
    failed: ['danger', 'Başarısız', 'Failed'],
    expired: ['neutral', 'Süresi doldu', 'Expired'],
  },
  /** A refund */
  refund: {
    pending: ['info', 'Bekliyor', 'Pending'],
    succeeded: ['success', 'Başarılı', 'Succeeded'],
    failed: ['danger', 'Başarısız', 'Failed'],
  },
  /** A refund row's type: part or all of the money back, or the whole payment cancelled */
  refundType: {
    refund: ['neutral', 'İade', 'Refund'],
    cancel: ['neutral', 'İptal', 'Cancel'],
  },
  /** PaymentSource: what started a payment */
  source: {
    api: ['neutral', 'API', 'API'],
    order: ['neutral', 'Sipariş', 'Order'],
    payment_link: ['neutral', 'Ödeme linki', 'Payment link'],
    subscription: ['neutral', 'Abonelik', 'Subscription'],
  },
  /** SecurityType: with or without 3-D Secure */
  security: {
    secure: ['info', '3D Secure', '3-D Secure'],
    non_secure: ['neutral', '3D’siz', 'Without 3-D Secure'],
  },
  /** An access token */
  token: {
    active: ['success', 'Etkin', 'Active'],
    revoked: ['neutral', 'İptal edildi', 'Revoked'],
    expired: ['neutral', 'Süresi doldu', 'Expired'],
  },
  /** A payment account's routing health */
  health: {
    healthy: ['success', 'Sağlıklı', 'Healthy'],
    degraded: ['danger', 'Yönlendirme dışı (hata veriyor)', 'Out of routing (failing)'],
    probing: ['warning', 'Deneniyor', 'On probation'],
  },
  /** A payment account's capability flags */
  capability: {
    secure: ['info', '3D Secure', '3-D Secure'],
    non_secure: ['info', '3D’siz ödeme', 'Non-3D payments'],
    card_storage: ['info', 'Kart saklama', 'Card storage'],
    card_deletion: ['info', 'Kart silme', 'Card deletion'],
    refund: ['info', 'İade', 'Refunds'],
    cancel: ['info', 'İptal', 'Cancels'],
    hosted_page: ['info', 'Ödeme sayfası', 'Hosted page'],
    conversion: ['info', 'Kur dönüşümü', 'Currency conversion'],
  },
  /** AttemptOutcome: one call to a provider */
  attempt: {
    succeeded: ['success', 'Başarılı', 'Succeeded'],
    declined: ['warning', 'Reddedildi', 'Declined'],
    redirect: ['info', 'Yönlendirme (3D)', 'Redirect (3D)'],
    error: ['danger', 'Hata', 'Error'],
    timeout: ['danger', 'Zaman aşımı', 'Timed out'],
    unknown: ['warning', 'Bilinmiyor', 'Unknown'],
  },
  /** ProviderOperation */
  operation: {
    charge: ['neutral', 'Tahsilat', 'Charge'],
    start3D: ['neutral', '3D başlatma', '3D start'],
    complete3D: ['neutral', '3D tamamlama', '3D completion'],
    refund: ['neutral', 'İade', 'Refund'],
    cancel: ['neutral', 'İptal', 'Cancel'],
    paymentStatus: ['neutral', 'Ödeme sorgusu', 'Payment inquiry'],
    refundStatus: ['neutral', 'İade sorgusu', 'Refund inquiry'],
    storeCard: ['neutral', 'Kart saklama', 'Card storage'],
    deleteCard: ['neutral', 'Kart silme', 'Card deletion'],
  },
  /** TimelineKind */
  timeline: {
    created: ['neutral', 'Ödeme oluşturuldu', 'Payment created'],
    risk: ['info', 'Risk kararı', 'Risk decision'],
    three_ds_opened: ['info', '3D sayfası açıldı', '3D page opened'],
    three_ds_answered: ['info', '3D sayfası yanıtlandı', '3D page answered'],
    callback_rejected: ['danger', '3D yanıtı reddedildi', '3D answer rejected'],
    provider_call: ['neutral', 'Sağlayıcı çağrısı', 'Provider call'],
    settled: ['success', 'Sonuçlandı', 'Settled'],
    refund: ['neutral', 'İade', 'Refund'],
    cancel: ['neutral', 'İptal', 'Cancel'],
    event: ['neutral', 'Olay', 'Event'],
    webhook_attempt: ['neutral', 'Webhook denemesi', 'Webhook attempt'],
  },
  /** ErrorKind of a mutation's error */
  errorKind: {
    validation: ['danger', 'Geçersiz bilgi', 'Invalid input'],
    state: ['warning', 'Bu durumda yapılamaz', 'Not possible in this state'],
    not_found: ['neutral', 'Bulunamadı', 'Not found'],
    forbidden: ['danger', 'Yetki yok', 'Not allowed'],
    rate_limited: ['warning', 'Çok fazla istek', 'Too many requests'],
    not_implemented: ['neutral', 'Desteklenmiyor', 'Not supported'],
  },
  /** AccessTokenRole, and support staff */
  role: {
    owner: ['info', 'Sahip', 'Owner'],
    developer: ['neutral', 'Geliştirici', 'Developer'],
    operator: ['neutral', 'Operasyon', 'Operator'],
    viewer: ['neutral', 'İzleyici', 'Viewer'],
    support: ['warning', 'Destek', 'Support'],
  },
  /** An audit entry's outcome: a write done, a write the role refused, a support read */
  auditOutcome: {
    done: ['success', 'Yapıldı', 'Done'],
    forbidden: ['danger', 'Reddedildi (rol)', 'Refused (role)'],
    read: ['neutral', 'Okundu', 'Read'],
    failed: ['warning', 'Yanlış parola', 'Wrong password'],
    locked: ['danger', 'Kilitli (çok deneme)', 'Locked (too many tries)'],
    wrong_code: ['warning', 'Yanlış doğrulama kodu', 'Wrong code'],
    code_asked: ['neutral', 'Kod istendi', 'Code asked'],
  },
  /** Why the route preview lists an account */
  routeReason: {
    token: ['info', 'İstekte belirtilen hesap', 'Account given'],
    rule: ['info', 'Kural', 'Rule'],
    cost: ['success', 'En ucuz', 'Cheapest'],
    default: ['neutral', 'Varsayılan', 'Default'],
    fallback: ['warning', 'Yedek (varsayılan)', 'Fallback (default)'],
  },
  /** A card's type, as BIN lookups and routing rules name it */
  cardType: {
    credit: ['neutral', 'Kredi kartı', 'Credit card'],
    debit: ['neutral', 'Banka kartı', 'Debit card'],
    prepaid: ['neutral', 'Ön ödemeli kart', 'Prepaid card'],
  },
  /** A workspace's mode */
  mode: {
    test: ['warning', 'Test', 'Test'],
    live: ['success', 'Canlı', 'Live'],
  },
  /** Currency: the currencies the gateway takes, by name */
  currency: {
    TRY: ['neutral', 'Türk lirası', 'Turkish lira'],
    USD: ['neutral', 'ABD doları', 'US dollar'],
    EUR: ['neutral', 'Euro', 'Euro'],
    GBP: ['neutral', 'İngiliz sterlini', 'Pound sterling'],
  },
} as const satisfies Record<string, Record<string, Entry>>;

export type StatusKind = keyof typeof S;
export const STATUS_KINDS = Object.keys(S) as StatusKind[];

/** The values a kind knows (for filters: every option comes from here, not from a copied list). */
export const statusValues = (kind: StatusKind): string[] => Object.keys(S[kind]);

/** Tone and label of `value`; an unknown value (a newer server) shows as itself, neutral. */
export function statusOf(kind: StatusKind, value: string, lang: Lang): { tone: Tone; label: string; known: boolean } {
  const entry = (S[kind] as Record<string, Entry>)[value];
  if (!entry) return { tone: 'neutral', label: value, known: false };
  return { tone: entry[0], label: lang === 'tr' ? entry[1] : entry[2], known: true };
}

/** The schema's enums and the kind that labels each (a test checks every value of every enum). */
export const SCHEMA_ENUM_KIND: Record<string, StatusKind> = {
  AccessTokenRole: 'role',
  AttemptOutcome: 'attempt',
  Currency: 'currency',
  ErrorKind: 'errorKind',
  NotificationStatus: 'notification',
  OrderStatus: 'order',
  PaymentMoneyStatus: 'money',
  PaymentStatus: 'payment',
  ProviderOperation: 'operation',
  SubscriptionStatus: 'subscription',
  TimelineKind: 'timeline',
};
