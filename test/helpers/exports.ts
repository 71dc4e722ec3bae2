// Reading the dashboard's CSV exports over real HTTP in tests: `get` a path under
// /dashboard/export/ with a bearer token (the default one unless `as` says otherwise; null: none),
// `rowsOf` a 200 answer as records by header, `column` one column of a path's rows.
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { TestGateway } from './gateway.ts';

export function exportReader(t: Pick<TestGateway, 'gateway'>, defaultToken: () => string) {
  const get = (path: string, as: string | null = defaultToken()) =>
    fetch(`${t.gateway.baseUrl}/dashboard/export/${path}`, { headers: { 'Accept-Language': 'en', ...(as ? { Authorization: `Bearer ${as}` } : {}) } });
  const rowsOf = async (res: Response): Promise<Record<string, string>[]> => {
    expect(res.status).toBe(200);
    return parse(await res.text(), { columns: true });
  };
  const column = async (path: string, name: string, as?: string) => (await rowsOf(await get(path, as))).map((r) => r[name]);
  return { get, rowsOf, column };
}
