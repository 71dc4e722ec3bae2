// Every job the gateway runs, defined before the runner starts.
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import { defineExpirePayment } from './expire-payment.ts';

export function defineJobs(agenda: Agenda, s: Services): void {
  defineExpirePayment(agenda, s);
}
