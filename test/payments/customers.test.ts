// The `customer` object of secure-payment and regular-payment creates or updates the customer,
// keyed by channel + channel_reference (contract: Customer object).
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../src/domain/workspaces.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { rowCounts } from '../helpers/rows.ts';

const { t, merchant: m, seed } = useGateway({ merchant: true });
let reference = 400;

const FULL = {
  channel_reference: 'C-100',
  firstname: 'Mehmet',
  lastname: 'Kaya',
  email: 'mehmet@example.com',
  phone: '+905551112233',
  address: 'Atatürk Cd. 1',
  district: 'Kadıköy',
  province: 'İstanbul',
  country: 'TR',
};

async function pay(customer: Record<string, unknown>, opts: { channelToken?: string; merchant?: Merchant; transaction?: Record<string, unknown> } = {}) {
  const merchant = opts.merchant ?? m;
  const body = paymentBody(merchant, { transaction: { channel_reference: `CU-${reference++}`, channel_token: opts.channelToken ?? merchant.channelToken, ...opts.transaction } });
  body.customer = customer;
  return merchant.call('regular-payment', body);
}

const customersWith = (channelReference: string) => t.gateway.services.db.customer.findMany({ where: { channelReference }, orderBy: { createdAt: 'asc' } });

describe('customer from a payment', () => {
  it('is created with every field sent and linked to the payment', async () => {
    const res = await pay(FULL);

    expect(res.body.customer).toEqual({ channel_reference: 'C-100' });
    const [customer] = await customersWith('C-100');
    expect(customer).toMatchObject({
      channelId: m.channelToken,
      firstname: 'Mehmet',
      lastname: 'Kaya',
      email: 'mehmet@example.com',
      phone: '+905551112233',
      address: 'Atatürk Cd. 1',
      district: 'Kadıköy',
      province: 'İstanbul',
      country: 'TR',
      // Stamped by the gateway's clock (a test's manual clock), not the machine's.
      createdAt: t.clock.now(),
    });
    const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } });
    expect(payment.customerId).toBe(customer!.id);
  });

  it('is updated by a later payment with the same channel_reference: sent fields replace, others stay', async () => {
    await pay({ ...FULL, channel_reference: 'C-200' });

    await pay({ channel_reference: 'C-200', email: 'new@example.com', phone: '+905559998877' });

    const customers = await customersWith('C-200');
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ firstname: 'Mehmet', lastname: 'Kaya', email: 'new@example.com', phone: '+905559998877', country: 'TR' });
  });

  it('is a different customer in another channel with the same channel_reference', async () => {
    const mobile = await createChannel(t.gateway.services.db, m.team, 'Mobile');
    await pay({ channel_reference: 'C-300', firstname: 'Web' });

    await pay({ channel_reference: 'C-300', firstname: 'Mobil' }, { channelToken: mobile.id });

    const customers = await customersWith('C-300');
    expect(customers.map((c) => [c.channelId, c.firstname])).toEqual([
      [m.channelToken, 'Web'],
      [mobile.id, 'Mobil'],
    ]);
  });

  it('is a different customer in another workspace with the same channel_reference', async () => {
    const other = await seed();
    await pay({ channel_reference: 'C-400', firstname: 'Bir' });

    await pay({ channel_reference: 'C-400', firstname: 'İki' }, { merchant: other });

    const customers = await customersWith('C-400');
    expect(customers.map((c) => [c.workspaceId, c.firstname])).toEqual([
      [m.workspaceId, 'Bir'],
      [other.workspaceId, 'İki'],
    ]);
  });

  it('is neither created nor changed by a rejected request', async () => {
    await pay({ ...FULL, channel_reference: 'C-500' });
    const before = await rowCounts(t);

    const rejected = await pay({ channel_reference: 'C-500', email: 'changed@example.com' }, { transaction: { currency: 'USD', installment_number: 2 } });
    const rejectedNew = await pay({ channel_reference: 'C-501' }, { transaction: { payment_provider_token: '00000000-0000-4000-8000-000000000000' } });

    expect(rejected.status).toBe(422);
    expect(rejectedNew.status).toBe(422);
    expect(await rowCounts(t)).toEqual(before);
    expect((await customersWith('C-500'))[0]!.email).toBe('mehmet@example.com');
  });

  it.each([
    ['firstname', { firstname: 'A'.repeat(256) }],
    ['email', { email: `${'a'.repeat(250)}@example.com` }],
    ['channel_reference', { channel_reference: 'C'.repeat(256) }],
  ])('rejects a %s over 255 characters with 422 and writes nothing', async (field, extra) => {
    const before = await rowCounts(t);

    const res = await pay({ channel_reference: 'C-600', ...extra });

    expectFieldError(res, `customer.${field}`, 'too_long', { params: { max: 255 } });
    expect(await rowCounts(t)).toEqual(before);
  });
});
