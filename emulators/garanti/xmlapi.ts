// POST /VPServlet: GVP's XML API (GVPSRequest in, GVPSResponse out) for sales, refund, void,
// orderinq and orderhistoryinq. Every answer is HTTP 200; the outcome is in Transaction/Response.
import { parseRequest, text, type Node } from './xml.ts';
import { answerHashData, xmlHashData } from './hash.ts';
import { CURRENCIES, isMinorUnits, type GarantiCredentials } from './config.ts';
import { maskPan, messageOf } from './cards.ts';
import { GvpRefusal, refuse, renderAnswer, type Envelope } from './answers.ts';
import { sale as makeSale, refund, voidTxn, inquiry, type TxnContext, type XmlContext } from './transactions.ts';

export type { XmlContext } from './transactions.ts';

export function handleXml(raw: string, ctx: XmlContext): string {
  const request = parseRequest(raw);
  const terminal = {
    ProvUserID: text(request, 'Terminal', 'ProvUserID'),
    UserID: text(request, 'Terminal', 'UserID'),
    ID: text(request, 'Terminal', 'ID'),
    MerchantID: text(request, 'Terminal', 'MerchantID'),
  };
  const customer = { IPAddress: text(request, 'Customer', 'IPAddress'), EmailAddress: text(request, 'Customer', 'EmailAddress') };
  const orderId = text(request, 'Order', 'OrderID');
  const envelope = (rest: Omit<Envelope, 'terminal' | 'customer' | 'orderId' | 'hashData'>): string => {
    const parts = [orderId, ctx.creds.terminalId, rest.response.code, rest.txn?.retrefNum ?? '', rest.txn?.authCode ?? ''];
    return renderAnswer({ terminal, customer, orderId, hashData: answerHashData(parts, ctx.creds.storeKey), ...rest });
  };
  try {
    if (!request) throw refuse.invalid('GVPSRequest document expected');
    const type = text(request, 'Transaction', 'Type');
    checkTerminal(request, type, ctx.creds);
    const txnCtx: TxnContext = { ...ctx, request, orderId };
    const result =
      type === 'sales' ? makeSale(txnCtx)
      : type === 'refund' ? refund(txnCtx)
      : type === 'void' ? voidTxn(txnCtx)
      : type === 'orderinq' || type === 'orderhistoryinq' ? inquiry(txnCtx, type)
      : null;
    if (!result) throw refuse.invalid(`Transaction/Type ${type || '(empty)'} is not supported`);
    const { txn } = result;
    const approved = !txn || txn.code === '00';
    return envelope({
      order: result.order,
      txn,
      cardMasked: result.cardNumber ? maskPan(result.cardNumber) : '',
      response: {
        source: txn ? 'HOST' : 'GVPS',
        code: txn ? txn.code : '00',
        reasonCode: txn ? txn.code : '',
        message: approved ? 'Approved' : 'Declined',
        errorMsg: approved ? '' : messageOf(txn.code),
        sysErrMsg: '',
      },
    });
  } catch (error) {
    if (!(error instanceof GvpRefusal)) throw error;
    const r = error.refusal;
    return envelope({ response: { source: 'GVPS', code: '92', reasonCode: r.reasonCode, message: 'Declined', errorMsg: r.errorMsg, sysErrMsg: r.sysErrMsg } });
  }
}

/** Terminal, merchant, user (PROVRFN for refund and void, PROVAUT otherwise) and HashData with that user's password. */
function checkTerminal(request: Node, type: string, creds: GarantiCredentials): void {
  const reversal = type === 'refund' || type === 'void';
  const user = reversal ? creds.refundUser : creds.provisionUser;
  const password = reversal ? creds.refundPassword : creds.provisionPassword;
  if (text(request, 'Terminal', 'ID') !== creds.terminalId) throw refuse.auth('Terminal/ID is not this terminal');
  if (text(request, 'Terminal', 'MerchantID') !== creds.merchantId) throw refuse.auth('Terminal/MerchantID is not this merchant');
  if (text(request, 'Terminal', 'ProvUserID') !== user) throw refuse.auth(`Terminal/ProvUserID must be ${user} for ${type || 'this transaction'}`);
  const orderId = text(request, 'Order', 'OrderID');
  if (!/^[A-Za-z0-9_-]{1,36}$/.test(orderId)) throw refuse.invalid('Order/OrderID must be 1-36 letters, digits, _ or -');
  const amount = text(request, 'Transaction', 'Amount');
  const currency = text(request, 'Transaction', 'CurrencyCode');
  if (type === 'sales' || type === 'refund') {
    if (!isMinorUnits(amount)) throw refuse.invalid('Transaction/Amount must be a positive integer in minor units');
    if (!CURRENCIES.has(currency)) throw refuse.invalid('Transaction/CurrencyCode must be an ISO 4217 numeric code GVP takes');
  }
  const expected = xmlHashData({ orderId, terminalId: creds.terminalId, cardNumber: text(request, 'Card', 'Number'), amount, currency }, password);
  if (text(request, 'Terminal', 'HashData').toUpperCase() !== expected) throw refuse.auth('Terminal/HashData does not match');
}

