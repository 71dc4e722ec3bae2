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
