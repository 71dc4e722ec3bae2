// npm run schema:print: writes the GraphQL schema the code builds to schema.graphql at the root,
// the dashboard's enum lists (dashboard/src/schema-enums.ts) and gql.tada's introspection that
// types the dashboard's documents (dashboard/src/graphql-env.d.ts).
// test/graphql/schema.test.ts fails when a committed file is stale.
import { writeFileSync } from 'node:fs';
import { ENUMS_FILE, INTROSPECTION_FILE, SCHEMA_FILE, printedEnums, printedSchema, writeIntrospection } from '../src/graphql/print.ts';

writeFileSync(SCHEMA_FILE, printedSchema());
writeFileSync(ENUMS_FILE, printedEnums());
writeIntrospection();
for (const file of [SCHEMA_FILE, ENUMS_FILE, INTROSPECTION_FILE]) process.stdout.write(`wrote ${file}\n`);
