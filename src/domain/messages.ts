// The one catalog of every message the gateway returns. Turkish is the default (spec: messages
// are returned in Turkish); `Accept-Language: en` selects English. {name} marks a parameter.

const catalog = {
  // generic input shape
  required: { tr: 'Bu alan zorunludur.', en: 'This field is required.' },
  invalid_type: { tr: 'Bu alanın türü geçersiz.', en: 'This field has an invalid type.' },
  unknown_field: { tr: 'Bu alan tanınmıyor.', en: 'This field is not allowed.' },
  too_long: { tr: 'En fazla {max} karakter olabilir.', en: 'Must be at most {max} characters.' },
  length_between: { tr: '{min} ile {max} karakter arasında olmalıdır.', en: 'Must be between {min} and {max} characters.' },
  length_exact: { tr: '{length} karakter olmalıdır.', en: 'Must be exactly {length} characters.' },
  invalid_uuid: { tr: 'Geçerli bir UUID olmalıdır.', en: 'Must be a valid UUID.' },
  invalid_url: { tr: 'http veya https ile başlayan geçerli bir adres olmalıdır.', en: 'Must be a valid http or https URL.' },
  invalid_boolean: { tr: 'true veya false olmalıdır.', en: 'Must be true or false.' },
  invalid_integer: { tr: 'Tam sayı olmalıdır.', en: 'Must be an integer.' },
  invalid_ip: { tr: 'Geçerli bir IPv4 veya IPv6 adresi olmalıdır.', en: 'Must be a valid IPv4 or IPv6 address.' },
  body_not_object: { tr: 'İstek gövdesi bir JSON nesnesi olmalıdır.', en: 'The request body must be a JSON object.' },
  body_too_large: { tr: 'İstek gövdesi 1 MB sınırını aşıyor.', en: 'The request body exceeds 1 MB.' },
  body_too_deep: { tr: 'İstek gövdesi çok fazla iç içe düzey içeriyor.', en: 'The request body is nested too deeply.' },
  body_too_complex: { tr: 'İstek gövdesi çok fazla alan içeriyor (en fazla {max}).', en: 'The request body has too many fields (at most {max}).' },
  key_too_long: { tr: 'İstek gövdesinde çok uzun bir alan adı var (en fazla {max} karakter).', en: 'The request body has a field name that is too long (at most {max} characters).' },
  too_many_items: { tr: 'En fazla {max} öğe olabilir.', en: 'Must have at most {max} items.' },
  text_invalid_characters: { tr: 'Geçersiz karakter içeriyor (NUL veya eşlenmemiş UTF-16 vekil karakteri).', en: 'Contains an invalid character (NUL or an unpaired UTF-16 surrogate).' },
  service_busy: { tr: 'Sistem şu anda yoğun; işlem yapılmadı. Lütfen biraz sonra tekrar deneyin.', en: 'The service is busy; nothing was done. Please retry shortly.' },
  // money
  amount_format: { tr: 'Tutar 100 veya 100.10 biçiminde olmalıdır.', en: 'The amount must be in the form 100 or 100.10.' },
  amount_positive: { tr: 'Tutar sıfırdan büyük olmalıdır.', en: 'The amount must be greater than zero.' },
  base_amount_exceeds: { tr: 'Satış tutarı çekilecek tutarı aşamaz.', en: 'The sold amount cannot exceed the charged amount.' },
  currency_invalid: { tr: 'Para birimi TRY, USD, EUR veya GBP olmalıdır.', en: 'The currency must be TRY, USD, EUR or GBP.' },
  currency_not_supported: { tr: 'Ödeme hesabı bu para birimini desteklemiyor.', en: 'The payment account does not accept this currency.' },
  conversion_rate_unavailable: { tr: 'Güncel kur bilgisi alınamadı.', en: 'The current exchange rate could not be obtained.' },
  installment_range: { tr: 'Taksit sayısı 1 ile 12 arasında olmalıdır.', en: 'The installment number must be between 1 and 12.' },
  installment_only_try: { tr: 'TRY dışındaki para birimlerinde taksit yapılamaz; taksit sayısı 1 olmalıdır.', en: 'No installments outside TRY; the installment number must be 1.' },
  rate_format: { tr: 'Oran 0 ile 100 arasında, en fazla iki ondalıklı olmalıdır.', en: 'The rate must be between 0 and 100 with at most two decimals.' },
  reference_needs_digit: { tr: 'En az bir rakam içermelidir.', en: 'Must contain at least one digit.' },
  // cards and BIN
  bin_too_short: { tr: 'BIN en az 6 haneli olmalıdır.', en: 'The BIN must have at least 6 digits.' },
  bin_too_long: { tr: 'BIN en fazla 8 haneli olabilir.', en: 'The BIN can have at most 8 digits.' },
  bin_digits_only: { tr: 'BIN yalnızca rakamlardan oluşmalıdır.', en: 'The BIN must contain digits only.' },
  // accounts
  account_not_found: { tr: 'Ödeme hesabı bulunamadı.', en: 'Payment account not found.' },
  no_default_account: { tr: 'Ödeme hesabı belirtilmedi ve varsayılan ödeme hesabı tanımlı değil.', en: 'No payment account was given and the workspace has no default account.' },
  account_no_secure: { tr: 'Ödeme hesabı 3D güvenli ödemeyi desteklemiyor.', en: 'The payment account does not support 3D Secure payment.' },
  account_no_non_secure: { tr: 'Ödeme hesabı güvenlik doğrulamasız ödemeyi desteklemiyor.', en: 'The payment account does not support payments without security verification.' },
  account_no_card_storage: { tr: 'Ödeme hesabı kart saklamayı desteklemiyor.', en: 'The payment account does not support card storage.' },
  account_no_hosted_page: { tr: 'Ödeme hesabı ödeme sayfasından ödeme almayı desteklemiyor.', en: 'The payment account cannot take payments on the hosted page.' },
  channel_not_found: { tr: 'Kanal bulunamadı.', en: 'Channel not found.' },
  // access
  workspace_inactive: { tr: 'Çalışma alanı işlem yapamaz.', en: 'The workspace cannot operate.' },
  plan_orders: { tr: 'Planınız siparişleri kapsamıyor.', en: 'Your plan does not cover orders.' },
  plan_saved_cards: { tr: 'Planınız kayıtlı kartları kapsamıyor.', en: 'Your plan does not cover saved cards.' },
  plan_subscriptions: { tr: 'Planınız abonelikleri kapsamıyor.', en: 'Your plan does not cover subscriptions.' },
  plan_payment_links: { tr: 'Planınız ödeme linklerini kapsamıyor.', en: 'Your plan does not cover payment links.' },
  module_pay_by_link_off: { tr: 'Link ile ödeme modülü kapalı.', en: 'The pay-by-link module is switched off.' },
  auth_missing_key: { tr: 'API anahtarı gönderilmedi.', en: 'The API key is missing.' },
  auth_invalid_key: { tr: 'API anahtarı geçersiz.', en: 'The API key is invalid.' },
  auth_missing_signature: { tr: 'İmza gönderilmedi.', en: 'The signature is missing.' },
  auth_invalid_signature: { tr: 'İmza geçersiz.', en: 'The signature is invalid.' },
  auth_stale_timestamp: { tr: 'Zaman damgası geçersiz veya 5 dakikadan eski.', en: 'The timestamp is invalid or more than 5 minutes off.' },
  auth_invalid_token: { tr: 'Erişim anahtarı geçersiz.', en: 'The access token is invalid.' },
  read_only: { tr: 'Bu erişim anahtarı yalnızca okuma yapabilir.', en: 'This access token is read-only.' },
  // REST plumbing
  unknown_operation: { tr: 'Böyle bir işlem yok.', en: 'No such operation.' },
  method_not_allowed: { tr: 'Yalnızca POST kabul edilir.', en: 'Only POST is accepted.' },
  not_implemented: { tr: 'Bu işlem henüz kullanıma açılmadı.', en: 'This operation is not available yet.' },
  internal_error: { tr: 'Beklenmeyen bir hata oluştu.', en: 'An unexpected error occurred.' },
  rate_limited: { tr: 'İstek sınırı aşıldı.', en: 'Request limit exceeded.' },
  // payments
  customer_required: { tr: 'Müşteri bilgisi zorunludur.', en: 'The customer is required.' },
  card_required: { tr: 'Kart bilgisi zorunludur.', en: 'Card data is required.' },
  saved_card_with_card: { tr: 'Kayıtlı kart ile birlikte kart bilgisi gönderilemez.', en: 'Card data cannot be sent with a saved card.' },
  saved_card_with_account: { tr: 'Kayıtlı kart ile birlikte ödeme hesabı gönderilemez.', en: 'A payment account cannot be sent with a saved card.' },
  saved_card_not_found: { tr: 'Kayıtlı kart bulunamadı.', en: 'Saved card not found.' },
  payment_not_found: { tr: 'Ödeme bulunamadı.', en: 'Payment not found.' },
  only_successful_refundable: { tr: 'Yalnızca başarılı bir ödeme iade edilebilir.', en: 'Only a successful payment can be refunded.' },
  only_successful_cancellable: { tr: 'Yalnızca başarılı bir ödeme iptal edilebilir.', en: 'Only a successful payment can be cancelled.' },
  cancelled_not_refundable: { tr: 'İptal edilmiş bir ödeme iade edilemez.', en: 'A cancelled payment cannot be refunded.' },
  no_refundable_amount: { tr: 'İade edilebilir tutar kalmadı.', en: 'No refundable amount is left.' },
  partially_refunded_not_cancellable: { tr: 'Kısmen iade edilmiş bir ödeme iptal edilemez.', en: 'A partially refunded payment cannot be cancelled.' },
  refunded_not_cancellable: { tr: 'İade edilmiş bir ödeme iptal edilemez.', en: 'A refunded payment cannot be cancelled.' },
  account_no_refund: { tr: 'Ödeme hesabı iadeyi desteklemiyor.', en: 'The payment account does not support refunds.' },
  account_no_cancel: { tr: 'Ödeme hesabı iptali desteklemiyor.', en: 'The payment account does not support cancellation.' },
  refund_exceeds: { tr: 'İade tutarı iade edilebilir tutarı aşamaz.', en: 'The refund cannot exceed the refundable amount.' },
  payment_expired_3ds: { tr: 'Müşteri 3D doğrulama sayfasını zamanında açmadı.', en: 'The customer did not open the 3D page in time.' },
  provider_timeout: { tr: 'Banka yanıt vermedi; ödemenin sonucu belirsiz.', en: 'The bank did not answer; the outcome of the payment is unknown.' },
  provider_timeout_refund: { tr: 'Banka yanıt vermedi; işlemin sonucu belirsiz.', en: 'The bank did not answer; the outcome is unknown.' },
  idempotency_key_reused: { tr: 'Bu Idempotency-Key farklı bir istekle kullanıldı.', en: 'This Idempotency-Key was used with a different request.' },
  idempotency_in_progress: { tr: 'Bu Idempotency-Key ile gönderilen istek hâlâ işleniyor.', en: 'A request with this Idempotency-Key is still being processed.' },
  date_format: { tr: 'Tarih YYYY-AA-GG biçiminde olmalıdır.', en: 'The date must be in the form YYYY-MM-DD.' },
  date_range_order: { tr: 'Bitiş tarihi başlangıç tarihinden önce olamaz.', en: 'The end date cannot be before the start date.' },
  date_range_too_long: { tr: 'Tarih aralığı en fazla 7 gün olabilir.', en: 'The date range can be at most 7 days.' },
  dates_together: { tr: 'Başlangıç ve bitiş tarihi birlikte gönderilmelidir.', en: 'The start and end dates must be sent together.' },
  not_with_dates: { tr: 'Tarih aralığı ile birlikte gönderilemez.', en: 'Cannot be combined with a date range.' },
  card_number_length: { tr: 'Kart numarası 12 ile 19 karakter arasında olmalıdır.', en: 'The card number must be 12 to 19 characters.' },
  card_number_digits: { tr: 'Kart numarası yalnızca rakamlardan oluşmalıdır.', en: 'The card number must contain digits only.' },
  security_code_length: { tr: 'Güvenlik kodu 3 veya 4 haneli olmalıdır.', en: 'The security code must be 3 or 4 digits.' },
  expiry_month_format: { tr: 'Son kullanma ayı 2 haneli olmalıdır (01-12).', en: 'The expiry month must be 2 digits (01-12).' },
  expiry_year_format: { tr: 'Son kullanma yılı 4 haneli olmalıdır.', en: 'The expiry year must be 4 digits.' },
  saved_card_account_deleted: { tr: 'Kayıtlı kartın ödeme hesabı silinmiş.', en: 'The saved card’s payment account was deleted.' },
  saved_card_other_mode: { tr: 'Kayıtlı kart bu ortamda (test/canlı) saklanmadı.', en: 'The saved card was not stored in this environment (test/live).' },
  saved_card_account_unsupported: { tr: 'Kayıtlı kartın ödeme hesabı kayıtlı kartla ödemeyi desteklemiyor.', en: 'The saved card’s account does not support saved-card payments.' },
  already_cancelled: { tr: 'Ödeme zaten iptal edilmiş.', en: 'The payment is already cancelled.' },
  // webhooks
  notification_not_found: { tr: 'Bildirim bulunamadı.', en: 'Notification not found.' },
  notification_still_pending: { tr: 'Bildirimin deneme süreci henüz bitmedi.', en: 'The notification still has attempts scheduled.' },
  webhook_url_invalid: { tr: 'Adres https ile başlayan herkese açık bir adres olmalıdır.', en: 'The address must be a public address starting with https.' },
  webhook_url_exists: { tr: 'Bu adres zaten eklenmiş.', en: 'This address was already added.' },
  webhook_events_required: { tr: 'En az bir olay seçilmelidir.', en: 'At least one event must be selected.' },
  webhook_event_unknown: { tr: 'Bu olay bu çalışma alanında seçilemez.', en: 'This event cannot be selected in this workspace.' },
  webhook_not_found: { tr: 'Webhook adresi bulunamadı.', en: 'Webhook address not found.' },
  // saved cards
  customer_not_found: { tr: 'Bu kanalda böyle bir müşteri yok.', en: 'No such customer in this channel.' },
  account_no_card_deletion: { tr: 'Kartın ödeme hesabı kart silmeyi desteklemiyor.', en: 'The card’s payment account does not support deleting cards.' },
  // catalog and orders
  product_type_invalid: { tr: 'Ürün tipi simple veya recurring olmalıdır.', en: 'The product type must be simple or recurring.' },
  product_period_required: { tr: 'recurring ürünler için periyot (monthly veya yearly) zorunludur.', en: 'A recurring product needs a period (monthly or yearly).' },
  product_period_invalid: { tr: 'Periyot monthly veya yearly olmalıdır.', en: 'The period must be monthly or yearly.' },
  product_amount_min: { tr: 'Tutar en az 0.01 olmalıdır.', en: 'The amount must be at least 0.01.' },
  amount_too_large: { tr: 'Tutar izin verilen üst sınırı aşıyor.', en: 'The amount exceeds the allowed maximum.' },
  order_items_required: { tr: 'Siparişte en az bir ürün olmalıdır.', en: 'The order needs at least one item.' },
  order_item_not_in_catalog: {
    tr: 'Bu ürün kanalın kataloğunda yok; ürünü kaydedin veya ad (name) ve birim fiyatı (unit_amount) gönderin.',
    en: 'This product is not in the channel’s catalog; save it or send name and unit_amount.',
  },
  order_item_currency_mismatch: {
    tr: 'Katalogdaki ürünün para birimi siparişinkinden farklı; birim fiyatı (unit_amount) gönderin.',
    en: 'The catalog product has another currency than the order; send unit_amount.',
  },
  quantity_range: { tr: 'Adet 1 ile 999999 arasında bir tam sayı olmalıdır.', en: 'The quantity must be an integer from 1 to 999999.' },
  token_not_combinable: { tr: 'Token, referans veya tarih aralığı ile birlikte gönderilemez.', en: 'The token cannot be combined with a reference or a date range.' },
  order_not_found: { tr: 'Sipariş bulunamadı.', en: 'Order not found.' },
  order_already_paid: { tr: 'Bu sipariş zaten ödendi.', en: 'This order has already been paid.' },
  order_payment_in_progress: { tr: 'Bu sipariş için bir ödeme hâlâ işleniyor; lütfen birkaç saniye sonra tekrar deneyin.', en: 'A payment of this order is still being processed; try again in a few seconds.' },
  order_payment_superseded: { tr: 'Ödeme sayfasından yeni bir ödeme başlatıldı.', en: 'A newer payment was started on the checkout page.' },
  // subscriptions
  subscription_items_required: { tr: 'Abonelikte en az bir ürün olmalıdır.', en: 'The subscription needs at least one item.' },
  subscription_product_not_found: { tr: 'Bu kanalda böyle bir ürün yok.', en: 'No such product in this channel.' },
  subscription_product_not_recurring: { tr: 'Bu ürün bir abonelik (recurring) ürünü değil.', en: 'This product is not a subscription (recurring) product.' },
  subscription_product_inactive: { tr: 'Bu ürün satışta değil.', en: 'This product is not on sale.' },
  subscription_product_repeated: { tr: 'Bir ürün abonelikte yalnızca bir kez yer alabilir.', en: 'A product can appear only once in a subscription.' },
  subscription_periods_differ: { tr: 'Abonelikteki ürünlerin periyotları aynı olmalıdır.', en: 'All products of a subscription must have the same period.' },
  subscription_currencies_differ: { tr: 'Abonelikteki ürünlerin para birimleri aynı olmalıdır.', en: 'All products of a subscription must have the same currency.' },
  renewal_limit_range: { tr: 'Yenileme sınırı 1 ile 1000 arasında bir tam sayı olmalıdır.', en: 'The renewal limit must be an integer from 1 to 1000.' },
  subscription_not_found: { tr: 'Abonelik bulunamadı.', en: 'Subscription not found.' },
  subscription_already_cancelled: { tr: 'Abonelik zaten iptal edilmiş.', en: 'The subscription is already cancelled.' },
  subscription_already_ended: { tr: 'Abonelik sona ermiş.', en: 'The subscription has ended.' },
  subscription_nothing_to_pay: { tr: 'Bu aboneliğin ödenecek bir dönemi yok.', en: 'This subscription has no period to pay.' },
  subscription_payment_in_progress: { tr: 'Bu abonelik için bir ödeme hâlâ işleniyor; lütfen birkaç saniye sonra tekrar deneyin.', en: 'A payment of this subscription is still being processed; try again in a few seconds.' },
  subscription_payment_superseded: { tr: 'Ödeme sayfası yeni bir ödemeyle veya aboneliğin iptaliyle kapandı.', en: 'The page was closed by a newer payment or by the subscription’s cancellation.' },
  subscription_no_default_card: { tr: 'Müşterinin varsayılan kayıtlı kartı yok.', en: 'The customer has no default saved card.' },
  test_clock_live_mode: { tr: 'Test saati yalnızca test modundaki bir çalışma alanında ilerletilebilir.', en: 'The test clock can only be advanced in a test-mode workspace.' },
  test_clock_duration: { tr: 'Süre 31d, 12h, 1y veya 1mo15d biçiminde, sıfırdan büyük ve en fazla 10 yıl olmalıdır.', en: 'The duration must look like 31d, 12h, 1y or 1mo15d, be greater than zero and at most 10 years.' },
} as const satisfies Record<string, { tr: string; en: string }>;

export type MessageCode = keyof typeof catalog;
export type Language = 'tr' | 'en';

export function message(code: MessageCode, lang: Language = 'tr', params: Record<string, string | number> = {}): string {
  const template: string = catalog[code][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

export function isMessageCode(code: string): code is MessageCode {
  return Object.hasOwn(catalog, code);
}

/** `Accept-Language: en…` picks English; everything else (or nothing) is Turkish. */
export function languageFrom(acceptLanguage: string | null | undefined): Language {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'tr';
}
