# The gateway compiled to JavaScript, run by plain node (no TypeScript at runtime).
# Build: docker build -t payment-gateway .   Run with PostgreSQL: docker compose up (compose.yaml).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: the Prisma client is generated below, once the schema is in place.
RUN npm ci --ignore-scripts
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.json tsconfig.build.json ./
RUN PRISMA_QUERY_ENGINE_LIBRARY=/dev/null PRISMA_SCHEMA_ENGINE_BINARY=/dev/null npx prisma generate
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/.data
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# Applied at every start by the gateway's own runner (src/db/migrate.ts).
COPY prisma/migrations ./prisma/migrations
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# node is PID 1 and handles SIGTERM itself: server, jobs and connections stop, exit 0.
# --max-semi-space-size=32: as `npm start` (docs/performance.md, "A larger young generation").
CMD ["node", "--max-semi-space-size=32", "dist/main.js"]
