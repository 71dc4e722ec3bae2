// The serving role: the gateway's requests and jobs reach PostgreSQL as a role that may read and
// write rows and nothing else. Altering or dropping a table, switching a trigger off (the audit
// trail's append-only guard), creating roles: only the owner of the schema may, and the owner
// only migrates. An injected statement runs with the serving role's rights, so it cannot undo them.
import type pg from 'pg';

/** The schemas the migrations create tables in; a migration that adds a schema adds it here. */
export const GATEWAY_SCHEMAS = ['public', 'agenda', 'ratelimit'];

/** Tables the serving role may read and add to but never change: the audit trail. */
const APPEND_ONLY = ['public."AuditEntry"'];

/** Tables it may only read: the migrations applied, so that a worker can check none is pending. */
const READ_ONLY = ['public."_gateway_migrations"'];

export interface ServingRole {
  name: string;
  /** Used when the role does not exist yet and the owner may create it. */
  password?: string;
  /** Set the password of a role that exists too (the embedded server's, see embeddedUrls). */
  setPassword?: boolean;
}

/** The role a connection string names (its user), or null when it names none. */
export function roleOf(url: string): string | null {
  const user = new URL(url).username;
  return user ? decodeURIComponent(user) : null;
}

/**
 * Makes the serving role's privileges exactly these, on every table the migrations made: SELECT,
 * INSERT, UPDATE, DELETE on rows (the audit trail INSERT and SELECT only, the migrations table
 * SELECT only), USAGE and SELECT on sequences. Run by the owner after every migration run, so a
 * table a later migration adds is covered, and anything granted by hand beyond that is taken back.
 * A role that does not exist is created (LOGIN, with the password given) when the owner may create
 * roles. One transaction: a failure leaves the privileges as they were.
 */
export async function grantServingRole(owner: pg.ClientBase, serving: ServingRole): Promise<void> {
  const role = owner.escapeIdentifier(serving.name);
  await owner.query('BEGIN');
  try {
    const found = await owner.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = $1', [serving.name]);
    if (found.rowCount === 0) {
      await owner.query(`CREATE ROLE ${role} LOGIN${serving.password ? ` PASSWORD ${owner.escapeLiteral(serving.password)}` : ''}`).catch((err: Error & { code?: string }) => {
        if (err.code !== '42501') throw err;
        throw new Error(
          `The serving role ${serving.name} (the user in DATABASE_URL) does not exist and the owner may not create it: ` +
            `create it (CREATE ROLE ${role} LOGIN PASSWORD '…') or give the owner CREATEROLE.`,
          { cause: err },
        );
      });
    } else if (found.rows[0]!.rolsuper) {
      throw new Error(`The serving role ${serving.name} (the user in DATABASE_URL) is a superuser, which no privilege binds: serve with an ordinary role.`);
    } else if (serving.setPassword && serving.password) {
      await owner.query(`ALTER ROLE ${role} PASSWORD ${owner.escapeLiteral(serving.password)}`);
    }
    const { rows } = await owner.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname', [GATEWAY_SCHEMAS]);
    const schemas = rows.map((r) => owner.escapeIdentifier(r.nspname)).join(', ');
    if (schemas) {
      await owner.query(`GRANT USAGE ON SCHEMA ${schemas} TO ${role}`);
      await owner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schemas} FROM ${role}`);
      await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schemas} TO ${role}`);
      await owner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schemas} FROM ${role}`);
      await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schemas} TO ${role}`);
    }
    for (const table of await existing(owner, APPEND_ONLY)) await owner.query(`REVOKE UPDATE, DELETE ON ${table} FROM ${role}`);
    for (const table of await existing(owner, READ_ONLY)) await owner.query(`REVOKE INSERT, UPDATE, DELETE ON ${table} FROM ${role}`);
    await owner.query('COMMIT');
  } catch (err) {
    await owner.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

async function existing(client: pg.ClientBase, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; found: boolean }>('SELECT name, to_regclass(name) IS NOT NULL AS found FROM unnest($1::text[]) AS name', [tables]);
  return rows.filter((r) => r.found).map((r) => r.name);
}
