// Request builders for catalog and order tests, and row counts for "a rejected request writes nothing".
import type { Merchant, TestGateway } from './gateway.ts';

type Body = Record<string, unknown>;

export function productBody(m: Merchant, over: Body = {}): Body {
  return {
    product: {
      channel_token: m.channelToken,
      channel_reference: 'SKU-1',
      name: 'Kahve Makinesi',
      type: 'simple',
      amount: '1500.00',
      tax_rate: '20',
      ...over,
    },
  };
}

export function orderBody(m: Merchant, over: { order?: Body; items?: Body[]; customer?: Body } = {}): Body {
  return {
    order: {
      channel_token: m.channelToken,
      channel_reference: 'ORD-1001',
      success_url: 'http://127.0.0.1:9/success',
      cancel_url: 'http://127.0.0.1:9/cancel',
      description: 'Sipariş 1001',
      items: over.items ?? [{ channel_reference: 'ITEM-1', name: 'Kitap', quantity: 2, unit_amount: '50.00', tax_rate: 10 }],
      ...over.order,
    },
    customer: { channel_reference: 'CUST-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...over.customer },
  };
}

export interface OrderRowCounts {
  products: number;
  orders: number;
  orderItems: number;
  customers: number;
  payments: number;
  events: number;
}

export async function orderRowCounts(t: TestGateway): Promise<OrderRowCounts> {
  const db = t.gateway.services.db;
  const [products, orders, orderItems, customers, payments, events] = await Promise.all([
    db.product.count(),
    db.order.count(),
    db.orderItem.count(),
    db.customer.count(),
    db.payment.count(),
    db.outboxEvent.count(),
  ]);
  return { products, orders, orderItems, customers, payments, events };
}

/** Turkish messages of the catalog and order rules (src/domain/messages.ts). */
export const MSG = {
  required: 'Bu alan zorunludur.',
  invalidType: 'Bu alanın türü geçersiz.',
  unknownField: 'Bu alan tanınmıyor.',
  invalidUuid: 'Geçerli bir UUID olmalıdır.',
  invalidUrl: 'http veya https ile başlayan geçerli bir adres olmalıdır.',
  invalidBoolean: 'true veya false olmalıdır.',
  tooLong255: 'En fazla 255 karakter olabilir.',
  tooLong2048: 'En fazla 2048 karakter olabilir.',
  needsDigit: 'En az bir rakam içermelidir.',
  amountFormat: 'Tutar 100 veya 100.10 biçiminde olmalıdır.',
  amountPositive: 'Tutar sıfırdan büyük olmalıdır.',
  amountTooLarge: 'Tutar izin verilen üst sınırı aşıyor.',
  rateFormat: 'Oran 0 ile 100 arasında, en fazla iki ondalıklı olmalıdır.',
  currencyInvalid: 'Para birimi TRY, USD, EUR veya GBP olmalıdır.',
  currencyNotSupported: 'Ödeme hesabı bu para birimini desteklemiyor.',
  channelNotFound: 'Kanal bulunamadı.',
  accountNotFound: 'Ödeme hesabı bulunamadı.',
  noDefaultAccount: 'Ödeme hesabı belirtilmedi ve varsayılan ödeme hesabı tanımlı değil.',
  accountNoSecure: 'Ödeme hesabı 3D güvenli ödemeyi desteklemiyor.',
  planOrders: 'Planınız siparişleri kapsamıyor.',
  workspaceInactive: 'Çalışma alanı işlem yapamaz.',
  productTypeInvalid: 'Ürün tipi simple veya recurring olmalıdır.',
  periodRequired: 'recurring ürünler için periyot (monthly veya yearly) zorunludur.',
  periodInvalid: 'Periyot monthly veya yearly olmalıdır.',
  productAmountMin: 'Tutar en az 0.01 olmalıdır.',
  itemsRequired: 'Siparişte en az bir ürün olmalıdır.',
  notInCatalog: 'Bu ürün kanalın kataloğunda yok; ürünü kaydedin veya ad (name) ve birim fiyatı (unit_amount) gönderin.',
  currencyMismatch: 'Katalogdaki ürünün para birimi siparişinkinden farklı; birim fiyatı (unit_amount) gönderin.',
  quantityRange: 'Adet 1 ile 999999 arasında bir tam sayı olmalıdır.',
  invalidInteger: 'Tam sayı olmalıdır.',
  tokenNotCombinable: 'Token, referans veya tarih aralığı ile birlikte gönderilemez.',
  notWithDates: 'Tarih aralığı ile birlikte gönderilemez.',
  dateRangeTooLong: 'Tarih aralığı en fazla 7 gün olabilir.',
  dateRangeOrder: 'Bitiş tarihi başlangıç tarihinden önce olamaz.',
  datesTogether: 'Başlangıç ve bitiş tarihi birlikte gönderilmelidir.',
  dateFormat: 'Tarih YYYY-AA-GG biçiminde olmalıdır.',
} as const;
