// Copies `text` to the clipboard and says so ("Copied", announced to screen readers). Without the
// asynchronous clipboard (plain http on another host, an old browser) it falls back to a hidden
// textarea and execCommand; if both fail it says to copy by hand.
import { useEffect, useState } from 'react';
import { useT } from '../i18n.ts';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span className="copy">
      <button type="button" onClick={() => void copy(text).then((ok) => setState(ok ? 'copied' : 'failed'))}>{label ?? t.kitCopy}</button>
      <span role="status" className={state === 'failed' ? 'error' : 'ok'}>{state === 'copied' ? t.kitCopied : state === 'failed' ? t.kitCopyFailed : ''}</span>
    </span>
  );
}
