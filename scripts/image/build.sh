#!/bin/sh
# The image's build stage, run by the Dockerfile in /app and by scripts/image-check.ts in a
# temporary folder: one list of steps for both, so the check cannot drift from the image.
#   build.sh dependencies   with package.json and package-lock.json in place
#   build.sh app            with the sources in place (prisma, src, dashboard, configs)
set -eu
case "${1:-}" in
  dependencies)
    # Every dependency, the build tools too (tsc, vite, the prisma CLI). Install scripts off:
    # the root postinstall needs the sources, which come in the next layer.
    npm ci --ignore-scripts --no-audit --no-fund
    ;;
  app)
    # The root postinstall, as `npm install` runs it: the Prisma client (prisma generate) and
    # the dashboard (vite build into dashboard/dist). Then src/ to JavaScript in dist/.
    npm run postinstall
    npm run build
    ;;
  *)
    echo "usage: build.sh dependencies|app" >&2
    exit 2
    ;;
esac
