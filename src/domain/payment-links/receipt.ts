// The receipt a payer gets by e-mail after a successful link payment (`emails_customer`): what
// was paid, to whom, when, and the references to quote. Sent by the send-receipt job.
import type { Services } from '../services.ts';
import { formatAmount } from '../money.ts';
import { message } from '../messages.ts';
import { LINK_AS_RELATION } from './view.ts';

export const SEND_RECEIPT_JOB = 'send-receipt';

export async function sendReceipt(s: Services, linkPaymentId: string): Promise<boolean> {
  const lp = await s.db.linkPayment.findUnique({ where: { id: linkPaymentId }, include: { link: { include: { workspace: true } }, payment: true }, ...LINK_AS_RELATION });
  if (!lp || lp.status !== 'paid' || !lp.payerEmail || !lp.link.emailsCustomer) return false;
  const items = (lp.items as Array<{ name: string; quantity: number; unitAmount: string }>).map((i) => `  ${i.quantity} x ${i.name}  ${i.unitAmount} ${lp.currency}`);
  const when = lp.paidAt?.toLocaleString('tr-TR', { timeZone: lp.link.workspace.timeZone }) ?? '';
  await s.mailer.send({
    to: lp.payerEmail,
    subject: message('receipt_subject', 'tr', { merchant: lp.link.workspace.name, reference: lp.reference }),
    text: [
      message('receipt_greeting', 'tr', { name: `${lp.payerFirstname ?? ''} ${lp.payerLastname ?? ''}`.trim() }),
      '',
      message('receipt_body', 'tr', { merchant: lp.link.workspace.name, amount: `${formatAmount(lp.amount)} ${lp.currency}`, when }),
      '',
      ...items,
      '',
      `${message('receipt_reference', 'tr')}: ${lp.reference}`,
      `${message('receipt_transaction', 'tr')}: ${lp.payment?.id ?? ''}`,
    ].join('\n'),
  });
  return true;
}
