// Labels of the payment links, products and webhooks screens (merged into i18n.ts).
export const linksLabelsTr = {
  linksNotAllowed: 'Rolünüz ödeme linki oluşturmaya izin vermiyor.',
  linkNotFound: 'Bu ödeme linki bulunamadı.',
  linksEmpty: 'Henüz ödeme linki yok.',
  linkNoPayments: 'Bu linkle henüz ödeme yapılmadı.',
  linkClosedNoPage: 'Link kapalı; ödeme sayfası ödeme almıyor.',
  linkShare: 'Bu adresi ödeyenle paylaşın ya da karekodu okutun.',
  wholeNumber: 'Adet 1 veya daha büyük bir tam sayı olmalıdır.',
  amountN: '{n}. tutar: {message}',
  payer: 'Ödeyen',
  notificationsEmpty: 'Henüz bildirim yok.',
  webhookAddressesEmpty: 'Henüz webhook adresi yok.',
  productsEmpty: 'Henüz ürün yok.',
  url: 'Adres (URL)',
};
export type LinksLabels = typeof linksLabelsTr;
export const linksLabelsEn: LinksLabels = {
  linksNotAllowed: 'Your role does not allow creating payment links.',
  linkNotFound: 'This payment link was not found.',
  linksEmpty: 'No payment links yet.',
  linkNoPayments: 'No payments through this link yet.',
  linkClosedNoPage: 'The link is closed; its payment page takes no payments.',
  linkShare: 'Share this address with the payer, or let them scan the QR code.',
  wholeNumber: 'The quantity must be a whole number of 1 or more.',
  amountN: 'Amount {n}: {message}',
  payer: 'Payer',
  notificationsEmpty: 'No notifications yet.',
  webhookAddressesEmpty: 'No webhook addresses yet.',
  productsEmpty: 'No products yet.',
  url: 'Address (URL)',
};
