// Used by `npm run db:diff` and the schema drift test: the WASM schema engine over the pg adapter
// works offline, where Prisma's native schema-engine binary would have to be downloaded.
// allowExitOnIdle: the CLI never closes the adapter, so without it every run waits out the pool's
// 10 s idle timeout before exiting.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL, allowExitOnIdle: true }),
});
