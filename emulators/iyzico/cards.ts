/**
 * iyzico's documented sandbox test cards (iyzipay README / docs.iyzico.com "Test Cards").
 * Any future expiry date and any well-formed CVC work with them, as in the sandbox.
 */
export type CardType = 'CREDIT_CARD' | 'DEBIT_CARD';
export type CardAssociation = 'MASTER_CARD' | 'VISA' | 'TROY' | 'AMERICAN_EXPRESS';

export interface CardProfile {
  cardType: CardType;
  cardAssociation: CardAssociation;
  cardFamily: string;
  bankName: string;
  bankCode: number;
}

export interface BankError {
  errorCode: string;
  errorGroup: string;
  errorMessage: string;
}

/** What a test card does beyond being approved. */
export type CardOutcome =
  | { kind: 'approve' }
  | { kind: 'error'; error: BankError }
  /** Paid, but the bank refuses cancel, refund and post-auth on it. */
  | { kind: 'approveNoReversal' }
  /** 3DS: the ACS answers this mdStatus whatever the shopper clicks. */
  | { kind: 'mdStatus'; mdStatus: string }
  /** 3DS: initialize itself fails. */
  | { kind: 'threeDsInitFails'; error: BankError };

const bank = (bankName: string, bankCode: number, cardFamily: string) => ({ bankName, bankCode, cardFamily });
const AKBANK = bank('Akbank', 46, 'Axess');
const DENIZ = bank('Denizbank', 134, 'Bonus');
const QNB = bank('QNB Finansbank', 111, 'CardFinans');
const GARANTI = bank('Garanti Bankası', 62, 'Bonus');
const HALK = bank('Halkbank', 12, 'Paraf');
const HSBC = bank('HSBC', 123, 'Advantage');
const IS = bank('Türkiye İş Bankası', 64, 'Maximum');
const VAKIF = bank('Vakıfbank', 15, 'World');
const YKB = bank('Yapı ve Kredi Bankası', 67, 'World');
const FOREIGN = bank('Foreign bank', 0, 'Foreign');

const profile = (b: typeof AKBANK, cardAssociation: CardAssociation, cardType: CardType): CardProfile => ({ ...b, cardAssociation, cardType });

/** Cards the sandbox approves. */
export const APPROVING_CARDS: Record<string, CardProfile> = {
  '5890040000000016': profile(AKBANK, 'MASTER_CARD', 'DEBIT_CARD'),
  '5526080000000006': profile(AKBANK, 'MASTER_CARD', 'CREDIT_CARD'),
  '9792072000017956': profile(AKBANK, 'TROY', 'CREDIT_CARD'),
  '4766620000000001': profile(DENIZ, 'VISA', 'DEBIT_CARD'),
  '4603450000000000': profile(DENIZ, 'VISA', 'CREDIT_CARD'),
  '4987490000000002': profile(QNB, 'VISA', 'DEBIT_CARD'),
  '5311570000000005': profile(QNB, 'MASTER_CARD', 'CREDIT_CARD'),
  '9792020000000001': profile(QNB, 'TROY', 'DEBIT_CARD'),
  '9792030000000000': profile(QNB, 'TROY', 'CREDIT_CARD'),
  '5170410000000004': profile(GARANTI, 'MASTER_CARD', 'DEBIT_CARD'),
  '5400360000000003': profile(GARANTI, 'MASTER_CARD', 'CREDIT_CARD'),
  '374427000000003': profile(GARANTI, 'AMERICAN_EXPRESS', 'CREDIT_CARD'),
  '4475050000000003': profile(HALK, 'VISA', 'DEBIT_CARD'),
  '5528790000000008': profile(HALK, 'MASTER_CARD', 'CREDIT_CARD'),
  '4059030000000009': profile(HSBC, 'VISA', 'DEBIT_CARD'),
  '5504720000000003': profile(HSBC, 'MASTER_CARD', 'CREDIT_CARD'),
  '5892830000000000': profile(IS, 'MASTER_CARD', 'DEBIT_CARD'),
  '4543590000000006': profile(IS, 'VISA', 'CREDIT_CARD'),
  '4910050000000006': profile(VAKIF, 'VISA', 'DEBIT_CARD'),
  '4157920000000002': profile(VAKIF, 'VISA', 'CREDIT_CARD'),
  '5168880000000002': profile(YKB, 'MASTER_CARD', 'DEBIT_CARD'),
  '5451030000000000': profile(YKB, 'MASTER_CARD', 'CREDIT_CARD'),
  '4054180000000007': profile(FOREIGN, 'VISA', 'DEBIT_CARD'),
  '5400010000000004': profile(FOREIGN, 'MASTER_CARD', 'CREDIT_CARD'),
};

const err = (errorCode: string, errorGroup: string, errorMessage: string): BankError => ({ errorCode, errorGroup, errorMessage });

/** Bank error codes and groups as in iyzico's "Bank Error Codes" table. */
export const BANK_ERRORS = {
  notSufficientFunds: err('10051', 'NOT_SUFFICIENT_FUNDS', 'Kart limiti yetersiz, yetersiz bakiye'),
  doNotHonour: err('10005', 'DO_NOT_HONOUR', 'İşlem onaylanmadı'),
  invalidTransaction: err('10012', 'INVALID_TRANSACTION', 'Geçersiz işlem'),
  lostCard: err('10043', 'LOST_CARD', 'Kayıp kart, karta el koyunuz'),
  stolenCard: err('10043', 'STOLEN_CARD', 'Çalıntı kart, karta el koyunuz'),
  expiredCard: err('10054', 'EXPIRED_CARD', 'Vadesi dolmuş kart'),
  invalidCvc2: err('10084', 'INVALID_CVC2', 'CVC2 bilgisi hatalı'),
  notPermittedToCardholder: err('10057', 'NOT_PERMITTED_TO_CARDHOLDER', 'Kart sahibi bu işlemi yapamaz'),
  notPermittedToTerminal: err('10058', 'NOT_PERMITTED_TO_TERMINAL', 'Terminalin bu işlemi yapmaya yetkisi yok'),
  fraudSuspect: err('10034', 'FRAUD_SUSPECT', 'Dolandırıcılık şüphesi'),
  pickupCard: err('10041', 'PICKUP_CARD', 'Karta el koyunuz'),
  generalError: err('10202', 'UNKNOWN', 'Ödeme işlemi esnasında genel bir hata oluştu'),
  threeDsInitFailed: err('10219', 'THREEDS_INIT_FAILED', '3D Secure başlatma işlemi başarısız'),
} as const;

/** Cards that produce a specific outcome; their profile is a generic VISA credit card. */
export const SPECIAL_CARDS: Record<string, CardOutcome> = {
  '5406670000000009': { kind: 'approveNoReversal' },
  '4111111111111129': { kind: 'error', error: BANK_ERRORS.notSufficientFunds },
  '4129111111111111': { kind: 'error', error: BANK_ERRORS.doNotHonour },
  '4128111111111112': { kind: 'error', error: BANK_ERRORS.invalidTransaction },
  '4127111111111113': { kind: 'error', error: BANK_ERRORS.lostCard },
  '4126111111111114': { kind: 'error', error: BANK_ERRORS.stolenCard },
  '4125111111111115': { kind: 'error', error: BANK_ERRORS.expiredCard },
  '4124111111111116': { kind: 'error', error: BANK_ERRORS.invalidCvc2 },
  '4123111111111117': { kind: 'error', error: BANK_ERRORS.notPermittedToCardholder },
  '4122111111111118': { kind: 'error', error: BANK_ERRORS.notPermittedToTerminal },
  '4121111111111119': { kind: 'error', error: BANK_ERRORS.fraudSuspect },
  '4120111111111110': { kind: 'error', error: BANK_ERRORS.pickupCard },
  '4130111111111118': { kind: 'error', error: BANK_ERRORS.generalError },
  '4131111111111117': { kind: 'mdStatus', mdStatus: '0' },
  '4141111111111115': { kind: 'mdStatus', mdStatus: '4' },
  '4151111111111112': { kind: 'threeDsInitFails', error: BANK_ERRORS.threeDsInitFailed },
};

const SPECIAL_PROFILE: CardProfile = { ...bank('Test bank', 0, 'Test'), cardAssociation: 'VISA', cardType: 'CREDIT_CARD' };
const SPECIAL_MASTERCARD: CardProfile = { ...IS, cardAssociation: 'MASTER_CARD', cardType: 'CREDIT_CARD' };

export interface KnownCard {
  profile: CardProfile;
  outcome: CardOutcome;
}

/** The sandbox only knows its test cards: any other number is refused as invalid. */
export function lookupCard(cardNumber: string): KnownCard | null {
  const approving = APPROVING_CARDS[cardNumber];
  if (approving) return { profile: approving, outcome: { kind: 'approve' } };
  const special = SPECIAL_CARDS[cardNumber];
  if (special) return { profile: cardNumber.startsWith('5') ? SPECIAL_MASTERCARD : SPECIAL_PROFILE, outcome: special };
  return null;
}

/** BIN (first 6 digits) lookup over the test cards, as /payment/bin/check and installment answer it. */
export function lookupBin(binNumber: string): CardProfile | null {
  for (const number of [...Object.keys(APPROVING_CARDS), ...Object.keys(SPECIAL_CARDS)]) {
    if (number.startsWith(binNumber.slice(0, 6))) return lookupCard(number)!.profile;
  }
  return null;
}
