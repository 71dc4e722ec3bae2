// Read by `prisma generate` (the root postinstall). Prisma 7 takes the datasource URL from here,
// not from schema.prisma; generating needs none, so an unset DATABASE_URL is fine. Migrations are
// not Prisma's: src/db/migrate.ts applies them and scripts/lib/migrate-diff.ts writes them, because
// Prisma 7's migrate commands need a native schema-engine binary that cannot be downloaded here.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  datasource: { url: process.env.DATABASE_URL },
});
