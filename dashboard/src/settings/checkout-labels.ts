// Labels of the hosted-page settings card (merged into i18n.ts): logo, colour, embed origins.
export const checkoutLabelsTr = {
  checkoutLook: 'Ödeme sayfaları', checkoutLogo: 'Logo adresi (https)', checkoutLogoHint: 'Ödeme sayfalarının üstünde gösterilir; boş: yalnızca adınız.',
  checkoutColor: 'Renk (#rrggbb)', checkoutColorHint: 'Üst şerit ve ödeme düğmesi; üzerindeki yazı okunaklı kalması için siyah ya da beyaz seçilir.',
  checkoutOrigins: 'Sayfaları çerçeveleyebilecek kökenler', checkoutOriginsHint: 'Her satıra bir köken: https://magaza.example veya geliştirme için http://localhost:3000. Boş: hiçbir sayfa çerçeveleyemez.',
  checkoutSave: 'Ödeme sayfası ayarlarını kaydet', checkoutNone: 'Yok', checkoutDefaultColor: 'Ağ geçidinin rengi', checkoutNoOrigins: 'Hiçbir sayfa (çerçeveleme yasak)',
  checkoutLine: '{n}. satır: {message}',
};

export const checkoutLabelsEn: typeof checkoutLabelsTr = {
  checkoutLook: 'Checkout pages', checkoutLogo: 'Logo address (https)', checkoutLogoHint: 'Shown at the top of the checkout pages; empty: your name only.',
  checkoutColor: 'Colour (#rrggbb)', checkoutColorHint: 'The top bar and the pay button; the text on it is black or white, whichever reads better.',
  checkoutOrigins: 'Origins that may frame the pages', checkoutOriginsHint: 'One origin a line: https://shop.example, or http://localhost:3000 for development. Empty: no page may frame them.',
  checkoutSave: 'Save the checkout settings', checkoutNone: 'None', checkoutDefaultColor: "The gateway's colour", checkoutNoOrigins: 'No page (framing refused)',
  checkoutLine: 'Line {n}: {message}',
};
