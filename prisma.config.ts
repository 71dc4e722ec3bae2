// Used only by `npm run db:diff`: the WASM schema engine over the pg adapter works offline,
// where Prisma's native schema-engine binary would have to be downloaded.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
