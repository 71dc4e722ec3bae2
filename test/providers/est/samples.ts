// CC5Response answers from mewebstudio/pos (MIT) tests/Unit/DataMapper/ResponseDataMapper/
// EstPosResponseDataMapperTest.php, written as the XML the bank sends. The order id each sample
// names is replaced by `{ORDER}`: the scripted bank answers about the order it was asked about.

const cc5 = (top: string, extra: string): string => `<?xml version="1.0" encoding="ISO-8859-9"?>
<CC5Response>${top}<Extra>${extra}</Extra></CC5Response>`;

/** paymentTestDataProvider 'success_2'. */
export const PAYMENT_APPROVED = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>{ORDER}</GroupId><Response>Approved</Response><AuthCode>P90325</AuthCode><HostRefNum>230300671782</HostRefNum><ProcReturnCode>00</ProcReturnCode><TransId>22303Md4C19254</TransId><ErrMsg></ErrMsg>',
  '<SETTLEID>2287</SETTLEID><TRXDATE>20221030 12:29:53</TRXDATE><ERRORCODE></ERRORCODE><TERMINALID>00655020</TERMINALID><MERCHANTID>655000200</MERCHANTID><CARDBRAND>VISA</CARDBRAND><CARDISSUER>AKBANK T.A.S.</CARDISSUER><AVSAPPROVE>Y</AVSAPPROVE><HOSTDATE>1030-122954</HOSTDATE><NUMCODE>00</NUMCODE>',
);

/** paymentTestDataProvider 'fail1': EST's own refusal (99, CORE-2012). */
export const PAYMENT_BAD_CARD_NUMBER = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>{ORDER}</GroupId><Response>Error</Response><AuthCode></AuthCode><HostRefNum></HostRefNum><ProcReturnCode>99</ProcReturnCode><TransId>22302WcCC13836</TransId><ErrMsg>Kredi karti numarasi gecerli formatta degil.</ErrMsg>',
  '<SETTLEID></SETTLEID><TRXDATE>20221029 22:28:01</TRXDATE><ERRORCODE>CORE-2012</ERRORCODE><NUMCODE>992012</NUMCODE>',
);

/** threeDPaymentDataProvider '3d_auth_success_payment_fail_wong_cvv': the issuer's 82. */
export const PAYMENT_WRONG_CVV = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>4aa841c4</GroupId><Response>Declined</Response><HostRefNum>4139489</HostRefNum><ProcReturnCode>82</ProcReturnCode><TransId>24138rt2596</TransId><ErrMsg>CVV Hatasi veya girilen CVV gecersiz.</ErrMsg>',
  '<CARDBRAND>VISA</CARDBRAND><ERRORCODE>ISO8583-82</ERRORCODE><TRXDATE>20240517 13:17:31</TRXDATE><NUMCODE>82</NUMCODE>',
);

/** The same shape with the issuer's 51 (insufficient funds), as EST passes ISO codes on. */
export const PAYMENT_NO_FUNDS = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>{ORDER}</GroupId><Response>Declined</Response><HostRefNum>4139490</HostRefNum><ProcReturnCode>51</ProcReturnCode><TransId>24138rt2597</TransId><ErrMsg>Bakiyesi yetersiz</ErrMsg>',
  '<ERRORCODE>ISO8583-51</ERRORCODE><NUMCODE>51</NUMCODE>',
);

/** cancelTestDataProvider 'success1'. */
export const VOID_APPROVED = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>{ORDER}</GroupId><Response>Approved</Response><AuthCode>P43467</AuthCode><HostRefNum>230300671786</HostRefNum><ProcReturnCode>00</ProcReturnCode><TransId>22303MzZG10851</TransId><ErrMsg></ErrMsg>',
  '<SETTLEID>2287</SETTLEID><TRXDATE>20221030 12:51:25</TRXDATE><ERRORCODE></ERRORCODE><HOSTDATE>1030-125130</HOSTDATE><NUMCODE>00</NUMCODE>',
);

/** refundTestDataProvider 'success1'. */
export const CREDIT_APPROVED = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>dfc36f0e</GroupId><Response>Approved</Response><AuthCode>46</AuthCode><HostRefNum>41</HostRefNum><ProcReturnCode>00</ProcReturnCode><TransId>24138</TransId><ErrMsg></ErrMsg><ERRORCODE></ERRORCODE>',
  '<CARDBRAND>MASTERCARD</CARDBRAND><CARDHOLDERNAME>ME* DE*</CARDHOLDERNAME><TRXDATE>20240517 13:30:43</TRXDATE><NUMCODE>00</NUMCODE><SETTLEID></SETTLEID>',
);

/** refundTestDataProvider 'fail1': a refund before the day's settlement (CORE-2508). */
export const CREDIT_REFUSED = cc5(
  '<OrderId>{ORDER}</OrderId><GroupId>{ORDER}</GroupId><Response>Error</Response><AuthCode></AuthCode><HostRefNum></HostRefNum><ProcReturnCode>99</ProcReturnCode><TransId>22303M8rC11328</TransId><ErrMsg>Iade yapilamaz, siparis gunsonuna girmemis.</ErrMsg>',
  '<SETTLEID></SETTLEID><TRXDATE>20221030 12:58:42</TRXDATE><ERRORCODE>CORE-2508</ERRORCODE><NUMCODE>992508</NUMCODE>',
);

const orderStatus = (chargeType: string, amount: string, transStat: string, voidDttm = ''): string =>
  cc5(
    '<ErrMsg>Record(s) found for {ORDER}</ErrMsg><ProcReturnCode>00</ProcReturnCode><Response>Approved</Response><OrderId>{ORDER}</OrderId><TransId>24003VxrB15662</TransId>',
    `<AUTH_CODE>P42795</AUTH_CODE><AUTH_DTTM>2024-01-03 21:49:42.929</AUTH_DTTM><CAPTURE_AMT>${amount}</CAPTURE_AMT><CHARGE_TYPE_CD>${chargeType}</CHARGE_TYPE_CD><HOST_REF_NUM>400300744237</HOST_REF_NUM><NUMCODE>0</NUMCODE><ORDERSTATUS>ORD_ID:{ORDER}\tCHARGE_TYPE_CD:${chargeType}\tORIG_TRANS_AMT:${amount}\tTRANS_STAT:${transStat}</ORDERSTATUS><ORD_ID>{ORDER}</ORD_ID><ORIG_TRANS_AMT>${amount}</ORIG_TRANS_AMT><PAN>4546 71** **** 7894</PAN><PROC_RET_CD>00</PROC_RET_CD><TRANS_ID>24003VxrB15662</TRANS_ID><TRANS_STAT>${transStat}</TRANS_STAT>${voidDttm ? `<VOID_DTTM>${voidDttm}</VOID_DTTM>` : ''}`,
  );

/** statusTestDataProvider 'pay_order_status': a sale of 1.01, captured. */
export const STATUS_SOLD_101 = orderStatus('S', '101', 'C');
/** statusTestDataProvider 'canceled_order_status': the sale voided. */
export const STATUS_VOIDED_101 = orderStatus('S', '101', 'V', '2024-01-03 21:49:44.301');
/** statusTestDataProvider 'refund_order_status': the latest transaction is a credit of 2.01. */
export const STATUS_CREDITED_201 = orderStatus('C', '201', 'C');
/** statusTestDataProvider 'fail1': the bank has no such order. */
export const STATUS_NO_RECORD = cc5(
  '<ErrMsg>No record found for {ORDER}</ErrMsg><ProcReturnCode>99</ProcReturnCode><Response>Declined</Response><OrderId></OrderId><TransId></TransId>',
  '<NUMCODE>0</NUMCODE><ORDERSTATUS>ORD_ID:\tCHARGE_TYPE_CD:\tORIG_TRANS_AMT:\tCAPTURE_AMT:\tTRANS_STAT:\tAUTH_DTTM:\tCAPTURE_DTTM:\tAUTH_CODE:</ORDERSTATUS>',
);

/** orderHistoryTestDataProvider 'success_cancel_success_refund_fail': a sale of 1.01 voided, then a credit of 1.00 refused (99). */
export const HISTORY_VOIDED_THEN_REFUSED = cc5(
  '<ErrMsg></ErrMsg><ProcReturnCode>00</ProcReturnCode><Response>Approved</Response><OrderId>{ORDER}</OrderId>',
  '<TERMINALID>00655020</TERMINALID><MERCHANTID>655000200</MERCHANTID><NUMCODE>0</NUMCODE><TRX1>C\tD\t100\t100\t2024-01-02 21:53:02.486\t2024-01-02 21:53:02.486\t\t\t\t99\t24002V3CG19993</TRX1><TRX2>S\tV\t101\t101\t2024-01-02 21:52:59.261\t2024-01-02 21:52:59.261\t2024-01-02 21:53:01.297\t400200744059\tP78955\t00\t24002V29G19979</TRX2><TRXCOUNT>2</TRXCOUNT>',
);
/** orderHistoryTestDataProvider 'success_one_payment_tx': one captured sale of 1.01. */
export const HISTORY_ONE_SALE = cc5(
  '<ErrMsg></ErrMsg><ProcReturnCode>00</ProcReturnCode><Response>Approved</Response><OrderId>{ORDER}</OrderId>',
  '<TERMINALID>00655020</TERMINALID><MERCHANTID>655000200</MERCHANTID><NUMCODE>0</NUMCODE><TRX1>S\tC\t101\t101\t2024-01-01 22:15:27.511\t2024-01-01 22:15:27.511\t\t400100743898\tP14578\t00\t24001WPbH16694</TRX1><TRXCOUNT>1</TRXCOUNT>',
);
/** orderHistoryTestDataProvider 'fail1': the bank has no such order. */
export const HISTORY_NO_RECORD = cc5(
  '<ErrMsg>No record found for {ORDER}</ErrMsg><ProcReturnCode>05</ProcReturnCode><Response>Declined</Response><OrderId>{ORDER}</OrderId>',
  '<NUMCODE>0</NUMCODE><TRXCOUNT>0</TRXCOUNT>',
);
