// npm run schema:print: writes the GraphQL schema the code builds to schema.graphql at the root.
// test/graphql/schema.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { SCHEMA_FILE, printedSchema } from '../src/graphql/print.ts';

writeFileSync(SCHEMA_FILE, printedSchema());
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
