/**
 * iyzico's failure envelope: HTTP 200/4xx with { status: "failure", errorCode, errorMessage, ... }.
 * Codes 1, 11, 12, 15, 17, 23 and 24 are from iyzico's "General Error Codes" table; the
 * others marked "emulator" are this emulator's choice where the docs give no number.
 */
export interface IyziError {
  httpStatus: number;
  errorCode: string;
  errorMessage: string;
  errorGroup?: string;
}

const e = (httpStatus: number, errorCode: string, errorMessage: string, errorGroup?: string): IyziError => ({
  httpStatus,
  errorCode,
  errorMessage,
  errorGroup,
});

export const ERRORS = {
  systemError: e(500, '1', 'Sistem hatası'),
  invalidRequest: e(400, '11', 'Geçersiz istek'),
  invalidCardNumber: e(400, '12', 'Kart numarası geçersizdir'),
  invalidCvc: e(400, '15', 'CVC geçersizdir'),
  expiredCard: e(400, '17', 'Kartın son kullanma tarihi geçersizdir'),
  callbackUrlRequired: e(400, '23', 'Callback url gönderilmesi zorunludur'),
  required: (field: string) => e(400, '24', `${field} gönderilmesi zorunludur`),
  invalidField: (field: string) => e(400, '11', `Geçersiz istek: ${field}`),
  // emulator: iyzico answers these with its own codes, which the public docs do not list.
  basketMismatch: e(400, '5005', 'Sepet tutarı ile ürün tutarlarının toplamı eşit olmalıdır'),
  paymentNotFound: e(400, '5003', 'Ödeme bulunamadı'),
  transactionNotFound: e(400, '5004', 'Ödeme kalemi bulunamadı'),
  refundExceeds: e(400, '5033', 'İade tutarı, ödeme tutarından büyük olamaz'),
  alreadyCancelled: e(400, '5034', 'Ödeme daha önce iptal edilmiş'),
  notCompletable: e(400, '5035', 'Ödeme 3D doğrulaması tamamlanmadı'),
  threeDsNotVerified: e(400, '10217', '3D doğrulaması başarısız'),
  reversalRefused: e(400, '10012', 'Geçersiz işlem', 'INVALID_TRANSACTION'),
  cardNotFound: e(400, '3003', 'Kart bulunamadı'),
  binNotFound: e(400, '10213', 'BIN bulunamadı', 'BIN_NOT_FOUND'),
} as const;

export function failureBody(err: Pick<IyziError, 'errorCode' | 'errorMessage' | 'errorGroup'>, locale: string, conversationId?: string) {
  return {
    status: 'failure',
    errorCode: err.errorCode,
    errorMessage: err.errorMessage,
    ...(err.errorGroup ? { errorGroup: err.errorGroup } : {}),
    locale,
    systemTime: Date.now(),
    ...(conversationId !== undefined ? { conversationId } : {}),
  };
}

/** Thrown by handlers; the server turns it into iyzico's failure body. */
export class IyziFailure extends Error {
  constructor(readonly error: IyziError) {
    super(error.errorMessage);
  }
}
