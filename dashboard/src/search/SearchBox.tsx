// The header's search box: the typed text becomes the search screen's path (search/<text>), so a
// result list can be linked to and the browser's back button returns to it.
import { useState, type FormEvent } from 'react';
import { useT } from '../i18n.ts';
import { navigate } from '../router.ts';

/** 12 to 19 digits, spaces allowed (the server reads it the same way). */
const CARD_NUMBER = /^\d(?: ?\d){11,18}$/;

export function SearchBox({ initial }: { initial: string }) {
  const { t } = useT();
  const [q, setQ] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A card number never goes into the address (history, a reload's request line): its last four
    // find the same payments.
    const text = CARD_NUMBER.test(q.trim()) ? q.trim().slice(-4) : q.trim();
    if (text !== q) setQ(text);
    if (text) navigate(`search/${encodeURIComponent(text)}`);
  };
  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <label>
        <span className="sr-only">{t.search}</span>
        <input type="search" name="q" maxLength={200} placeholder={t.searchPlaceholder} value={q} onChange={(e) => setQ(e.target.value)} />
      </label>
      <button type="submit">{t.search}</button>
    </form>
  );
}
