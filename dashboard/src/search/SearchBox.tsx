// The header's search box: the typed text becomes the search screen's path (search/<text>), so a
// result list can be linked to and the browser's back button returns to it.
import { useState, type FormEvent } from 'react';
import { useT } from '../i18n.ts';
import { navigate } from '../router.ts';

export function SearchBox({ initial }: { initial: string }) {
  const { t } = useT();
  const [q, setQ] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (q.trim()) navigate(`search/${encodeURIComponent(q.trim())}`);
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
