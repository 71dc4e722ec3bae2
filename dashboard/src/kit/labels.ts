// Labels of the shared UI kit and the shell (merged into i18n.ts).
export const kitLabelsTr = {
  kitLoading: 'Yükleniyor…', kitEmpty: 'Burada henüz kayıt yok.', kitEmptyFiltered: 'Bu filtreye uyan kayıt yok; filtreyi değiştirip yeniden deneyin.',
  kitErrorTitle: 'Bilgiler alınamadı', kitRetry: 'Yeniden dene',
  kitCopy: 'Kopyala', kitCopied: 'Kopyalandı', kitCopyFailed: 'Kopyalanamadı; metni seçip kendiniz kopyalayın.',
  kitQr: 'Karekod: {value}', kitZoneNote: 'Saatler {zone} saat diliminde.',
  kitFormErrors: 'Form gönderilemedi',
  kitMenu: 'Menü', kitNavigation: 'Ana menü',
  kitTokenInvalid: 'Bu erişim anahtarı tanınmadı. Anahtarı eksiksiz yapıştırdığınızdan emin olun veya yeni bir anahtar oluşturun.',
  kitTokenExpired: 'Oturum sona erdi: erişim anahtarının süresi dolmuş ya da iptal edilmiş. Yeni bir anahtarla giriş yapın.',
  kitServerDown: 'Sunucuya ulaşılamadı. Bağlantınızı kontrol edip yeniden deneyin.',
};
export type KitLabels = typeof kitLabelsTr;
export const kitLabelsEn: KitLabels = {
  kitLoading: 'Loading…', kitEmpty: 'Nothing here yet.', kitEmptyFiltered: 'Nothing matches this filter; change it and try again.',
  kitErrorTitle: 'Could not load this', kitRetry: 'Try again',
  kitCopy: 'Copy', kitCopied: 'Copied', kitCopyFailed: 'Could not copy; select the text and copy it yourself.',
  kitQr: 'QR code: {value}', kitZoneNote: 'Times in {zone}.',
  kitFormErrors: 'The form was not sent',
  kitMenu: 'Menu', kitNavigation: 'Main menu',
  kitTokenInvalid: 'This access token was not recognised. Check that you pasted all of it, or create a new one.',
  kitTokenExpired: 'Your session ended: the access token has expired or was revoked. Sign in with a new token.',
  kitServerDown: 'The server could not be reached. Check your connection and try again.',
};
