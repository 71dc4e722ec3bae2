// The order id a bank's emulator knows a gateway payment by.
import { bankOrderId } from '../../src/providers/bank-order-id.ts';

export const orderOf = (paymentId: string): string => bankOrderId(`${paymentId}:charge`);
