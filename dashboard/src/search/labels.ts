// Labels of the search box, the customers screens and the payment timeline (merged into i18n.ts).
export const searchLabelsTr = {
  search: 'Ara', searchPlaceholder: 'Anahtar, referans, ad, e-posta, son 4 hane, tutar', searchResults: '"{q}" için sonuçlar',
  searchHelp: 'Anahtar (UUID), kanal referansı, müşteri adı veya e-postası, kartın son 4 hanesi ya da tutar (100 veya 100.50).',
  searchNone: 'Sonuç yok.', searchTooShort: 'En az 3 karakter yazın (son 4 hane ve tutar hariç).',
  customers: 'Müşteriler', email: 'E-posta', phone: 'Telefon', address: 'Adres', paymentCount: 'Ödeme sayısı', savedCards: 'Kayıtlı kartlar',
  expiry: 'Son kullanma', holder: 'Kart sahibi', isDefaultCard: 'Varsayılan',
  timeline: 'Zaman çizelgesi', timelineZone: 'Saatler {zone} saat diliminde',
  tl_created: 'Ödeme oluşturuldu', tl_risk: 'Risk kararı', tl_three_ds_opened: '3D sayfası açıldı', tl_three_ds_answered: '3D sayfası yanıtlandı',
  tl_provider_call: 'Sağlayıcı çağrısı', tl_settled: 'Sonuçlandı', tl_refund: 'İade', tl_cancel: 'İptal', tl_event: 'Olay',
  tl_webhook_attempt: 'Webhook denemesi',
  // Orders, subscriptions and customers pages.
  order: 'Sipariş', subscription: 'Abonelik', notFound: 'Bu kayıt bulunamadı; bağlantıyı kontrol edin veya listeden seçin.',
  periods: 'Dönemler', periodNumber: 'No', periodDates: 'Tarihler', periodPayments: '{n}. dönemin ödemeleri', startsAt: 'Başlangıç',
  renewalLimit: 'Yenileme sınırı', unlimited: 'Sınırsız', contact: 'İletişim', cardNumber: 'Kart numarası',
  confirmDefaultCard: '•••• {last4} kartı varsayılan yapılsın mı? Yenilemeler bu karttan tahsil edilir.',
  confirmDeleteCard: '•••• {last4} kartı silinsin mi? Kart ödeme sağlayıcısından da silinir.',
};
export type SearchLabels = typeof searchLabelsTr;
export const searchLabelsEn: SearchLabels = {
  search: 'Search', searchPlaceholder: 'Token, reference, name, e-mail, last four, amount', searchResults: 'Results for "{q}"',
  searchHelp: 'A token (UUID), a channel reference, a customer name or e-mail, a card’s last four digits or an amount (100 or 100.50).',
  searchNone: 'No results.', searchTooShort: 'Type at least 3 characters (last four digits and amounts excepted).',
  customers: 'Customers', email: 'E-mail', phone: 'Phone', address: 'Address', paymentCount: 'Payments', savedCards: 'Saved cards',
  expiry: 'Expiry', holder: 'Holder', isDefaultCard: 'Default',
  timeline: 'Timeline', timelineZone: 'Times in {zone}',
  tl_created: 'Payment created', tl_risk: 'Risk decision', tl_three_ds_opened: '3D page opened', tl_three_ds_answered: '3D page answered',
  tl_provider_call: 'Provider call', tl_settled: 'Settled', tl_refund: 'Refund', tl_cancel: 'Cancel', tl_event: 'Event',
  tl_webhook_attempt: 'Webhook attempt',
  // Orders, subscriptions and customers pages.
  order: 'Order', subscription: 'Subscription', notFound: 'This record was not found; check the link or pick it from the list.',
  periods: 'Periods', periodNumber: 'No.', periodDates: 'Dates', periodPayments: 'Payments of period {n}', startsAt: 'Starts',
  renewalLimit: 'Renewal limit', unlimited: 'Unlimited', contact: 'Contact', cardNumber: 'Card number',
  confirmDefaultCard: 'Make the card •••• {last4} the default? Renewals are charged from it.',
  confirmDeleteCard: 'Delete the card •••• {last4}? It is deleted at the payment provider too.',
};
