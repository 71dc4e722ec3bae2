// An account whose 3-D Secure callbacks its connector rejected lately: how many and why, and, when
// signature mismatches keep coming with none verified since, the likely cause (the store key).
import { useT } from '../i18n.ts';
import { useDates } from '../kit/dates.ts';

interface Verification {
  recentRejections: number;
  lastRejectedAt: string | null;
  lastCause: string | null;
  lastReason: string | null;
  storeKeySuspect: boolean;
}

export function CallbackFlag({ verification, timeZone }: { verification: Verification; timeZone: string | null }) {
  const { t } = useT();
  const dates = useDates(timeZone);
  if (verification.recentRejections === 0) return null;
  return (
    <div data-field="callbackVerification">
      {verification.storeKeySuspect && <strong role="alert" className="error" data-field="storeKeySuspect">{t.storeKeySuspect}</strong>}
      <div className="muted">
        {t.callbacksRejected}: <span data-field="recentRejections">{verification.recentRejections}</span>
        {verification.lastRejectedAt && <> · {t.lastRejection} {dates.dateTime(verification.lastRejectedAt)} ({dates.zone}): <span data-field="lastReason">{verification.lastReason}</span></>}
      </div>
    </div>
  );
}
