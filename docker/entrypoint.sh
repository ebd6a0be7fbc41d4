#!/bin/sh
# Entry point of the ppfile image (Dockerfile), run under tini. The first argument names the role:
#
#   gateway                       the HTTP API (PORT, 3000)
#   worker                        a queue worker (health and metrics on WORKER_HTTP_PORT, 3001)
#   migrate                       applies prisma/migrations to DATABASE_URL and exits; safe to repeat
#                                 and to run twice at once (Prisma's advisory lock, libs/db migrate.ts)
#   healthcheck [gateway|worker]  exits 0 when the role's /health/live answers 200; without a role,
#                                 when either port does (the image's HEALTHCHECK cannot know the role)
#   anything else                 the command line: `admin org create ...`, `validate FILE.csv ...`
#
# No argument means gateway. Every role replaces this shell (exec), so that node itself receives
# SIGTERM from tini and drains (SHUTDOWN_GRACE_SECONDS) instead of a shell that would not forward it.
set -eu

# The image's /app, or the repository when run from a checkout. Paths are absolute so that the
# command line keeps the caller's working directory for its file arguments.
app=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)

role=${1:-gateway}
if [ "$#" -gt 0 ]; then shift; fi

case "$role" in
  gateway)
    exec node "$app/dist/apps/gateway/apps/gateway/src/main.js" "$@"
    ;;
  worker)
    exec node "$app/dist/apps/worker/apps/worker/src/main.js" "$@"
    ;;
  migrate)
    exec node "$app/bin/ppfile.js" admin db migrate "$@"
    ;;
  healthcheck)
    case "${1:-any}" in
      gateway) ports=${PORT:-3000} ;;
      worker) ports=${WORKER_HTTP_PORT:-3001} ;;
      *) ports="${PORT:-3000} ${WORKER_HTTP_PORT:-3001}" ;;
    esac
    # No curl in the slim image: node's fetch, bounded well under the HEALTHCHECK timeout.
    # shellcheck disable=SC2086 # one argument per port
    exec node -e '
      const probe = (port) =>
        fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(3000) }).then(
          (res) => {
            if (res.status !== 200) throw new Error(`port ${port}: HTTP ${res.status}`);
          },
          (e) => {
            throw new Error(`port ${port}: ${e.cause?.code ?? e.name}`);
          },
        );
      Promise.any(process.argv.slice(1).map(probe)).then(
        () => process.exit(0),
        (e) => {
          console.error(`unhealthy: ${e.errors.map((x) => x.message).join("; ")}`);
          process.exit(1);
        },
      );
    ' $ports
    ;;
  *)
    exec node "$app/bin/ppfile.js" "$role" "$@"
    ;;
esac
