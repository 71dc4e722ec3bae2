# The gateway compiled to JavaScript, run by plain node (no TypeScript at runtime), with the
# dashboard, GraphiQL, the API docs and the checkout pages: everything `npm start` serves.
# Build: docker build -t payment-gateway .   Run with PostgreSQL: docker compose up (compose.yaml).
# Every RUN is a script in scripts/image, which scripts/image-check.ts also runs (test/image.test.ts
# reproduces both stages from this file without Docker and checks what the result serves).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/image/build.sh ./scripts/image/
RUN sh scripts/image/build.sh dependencies
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.json tsconfig.build.json ./
COPY dashboard ./dashboard
COPY src ./src
RUN sh scripts/image/build.sh app

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/.data
COPY package.json package-lock.json ./
COPY scripts/image/runtime.sh ./scripts/image/
RUN sh scripts/image/runtime.sh
COPY --from=build /app/dist ./dist
COPY --from=build /app/dashboard/dist ./dashboard/dist
# Applied at every start by the gateway's own runner (src/db/migrate.ts).
COPY prisma/migrations ./prisma/migrations
USER node
EXPOSE 3000
# node is PID 1 and handles SIGTERM itself: server, jobs and connections stop, exit 0.
# --max-semi-space-size=32: as `npm start` (docs/performance.md, "A larger young generation").
CMD ["node", "--max-semi-space-size=32", "dist/main.js"]
