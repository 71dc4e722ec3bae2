// BIN facts (scheme, issuer, type) for a workspace: from the provider of its BIN source account
// (the one set, else the default account, else its oldest live account), kept per process for a day per account and BIN (a
// BIN's issuer and scheme change rarely, and routing asks on every card). No source account, or a
// provider that does not answer, gives a card with unknown facts: routing then matches only the
// rules that do not ask about the card, and the payment goes on.
import type { PaymentAccount, Workspace } from '../generated/prisma/client.ts';
import { ProviderTimeoutError, type BinInfo } from '../providers/types.ts';
import type { Services } from './services.ts';
import { liveAccount, liveAccounts } from './accounts.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How many BIN answers one process keeps (oldest dropped first). */
const KEPT = 20_000;

const cache = new Map<string, { info: BinInfo; until: number }>();

/**
 * The country that issued a card, as far as its BIN facts tell. The providers that answer BIN
 * lookups here (iyzico, the simulator) are Turkish: their BIN services describe the cards issued in
 * Turkey, each under its issuer's Turkish bank code (iyzico's sandbox answers its foreign test cards
 * with bank code 0). So a BIN with an issuer code is a TR card; one without (a card issued abroad,
 * a Turkish BIN the source has not met, a source that did not answer, a bank account's empty
 * answer) has no known country, and a rule condition on it does not hold. docs/decisions.md,
 * "The card's country".
 */
export function issuerCountry(info: Pick<BinInfo, 'issuerCode'> | null): string | null {
  return info?.issuerCode && !/^0+$/.test(info.issuerCode) ? 'TR' : null;
}

export const unknownBin = (bin: string): BinInfo => ({ bin, issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null });

async function binSource(s: Services, workspace: Workspace): Promise<PaymentAccount | null> {
  for (const id of [workspace.binSourceAccountId, workspace.defaultPaymentAccountId]) {
    const account = id ? await liveAccount(s.db, workspace, id) : null;
    if (account) return account;
  }
  // A workspace that routes every card by rule may have no default: its oldest account still knows cards.
  return (await liveAccounts(s.db, workspace))[0] ?? null;
}

export async function lookupBin(s: Services, workspace: Workspace, bin: string): Promise<BinInfo> {
  const account = await binSource(s, workspace);
  if (!account) return unknownBin(bin);
  const key = `${account.id}:${bin}`;
  const now = s.clock.now().getTime();
  const kept = cache.get(key);
  if (kept && kept.until > now) return kept.info;
  let info: BinInfo;
  try {
    info = await s.providers.forAccount(account).binLookup(bin);
  } catch (err) {
    if (err instanceof ProviderTimeoutError) return unknownBin(bin);
    throw err;
  }
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
  cache.set(key, { info, until: now + DAY_MS });
  return info;
}
