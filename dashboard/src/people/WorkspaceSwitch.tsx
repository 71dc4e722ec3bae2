// For a person in several workspaces: which one this session acts for, in the header. Choosing
// another moves the session there and loads the dashboard again (every screen reads anew).
import { useEffect, useState } from 'react';
import { useT } from '../i18n.ts';
import { chooseWorkspace, currentSession, type PersonSession } from '../people.ts';

export function WorkspaceSwitch({ csrfToken }: { csrfToken: string }) {
  const { t } = useT();
  const [session, setSession] = useState<PersonSession | null>(null);
  useEffect(() => {
    void currentSession().then(setSession);
  }, []);
  const workspaces = session?.workspaces ?? [];
  if (!session || workspaces.length < 2) return null;
  const choose = async (slug: string) => {
    if (await chooseWorkspace(slug, csrfToken)) location.reload();
  };
  return (
    <label>
      {t.workspace}
      <select name="person-workspace" value={session.workspace} onChange={(e) => void choose(e.target.value)}>
        {workspaces.map((w) => <option key={w.slug} value={w.slug}>{w.name} ({w.slug})</option>)}
      </select>
    </label>
  );
}
