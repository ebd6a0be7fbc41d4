# syntax=docker/dockerfile:1
#
# One image for every ppfile process: the gateway, the worker, the migrator and the command line.
# The first argument picks the role (docker/entrypoint.sh):
#
#   docker build -t ppfile:local .
#   docker run ppfile:local gateway                 # the HTTP API on PORT (3000)
#   docker run ppfile:local worker                  # a queue worker; health and metrics on WORKER_HTTP_PORT (3001)
#   docker run ppfile:local migrate                 # applies prisma/migrations to DATABASE_URL, then exits
#   docker run ppfile:local admin org create ...    # anything else is `ppfile ...` (API.md §11, §12)
#
# NODE_IMAGE is the base of every stage: the Node.js line production runs is the one line CI runs the
# whole test suite on (.ci/run NODE_PRODUCTION, docs/decisions.md "Node.js lines"), 24 LTS, supported
# until April 2028. The base is Debian's slim variant, whose apt provides tini. To build on another
# line: `docker build --build-arg NODE_IMAGE=node:26-bookworm-slim .` (not tested by CI).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, the Prisma client, the compiled apps ------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Prisma's CLI asks a remote service for update checks unless told not to.
ENV CHECKPOINT_DISABLE=1

COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: the lockfile lacks the optional native packages of other platforms
# (../shared/KNOWN.md), which `npm ci` treats as out of sync and refuses; `npm install` keeps every
# locked version and adds the build platform's. --ignore-scripts: `prepare` (db:generate, build:cli)
# needs the sources, not copied yet, and Prisma's install script would download native engines the
# project never uses (it migrates with its own runner, libs/db/src/migrate.ts).
RUN --mount=type=cache,target=/root/.npm \
    npm install --ignore-scripts --no-audit --no-fund

COPY . .
# The Prisma client is generated into libs/db/src/generated/prisma and compiled with the apps into
# dist/; generating needs no database.
RUN npm run db:generate && npm run build

# --- prod-deps: the production dependencies alone -------------------------------------------------
# A tree without devDependencies in package.json at all: `npm prune --omit=dev` would keep the Prisma
# CLI and TypeScript (devDependencies that are also optional peers of @prisma/client), 400 MB instead
# of 160. Same lockfile, so the same versions as the build stage.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm pkg delete devDependencies \
 && npm install --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime: node behind tini, production dependencies only, non-root ---------------------------
FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it forwards SIGTERM to node (which drains within SHUTDOWN_GRACE_SECONDS) and reaps
# zombies; node as PID 1 would ignore signals it has no handler for.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production
WORKDIR /app
# Owned by root and only readable by the `node` user the processes run as: the service cannot modify
# its own code, and the root filesystem can be mounted read-only (k8s/, docker-compose.yml).
COPY --from=build /app/package.json ./package.json
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# The migrator finds prisma/migrations above its compiled file; the reference lists are found beside
# package.json (libs/refdata shippedReferenceDir) unless PPFILE_REFERENCE_DATA points elsewhere.
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/reference-data ./reference-data
COPY --chmod=0755 docker/entrypoint.sh ./docker/entrypoint.sh

# The uid of the `node` user of the official images; Kubernetes' runAsNonRoot needs it numeric.
USER 1000:1000
EXPOSE 3000 3001

# /health/live of whichever role runs here (the gateway's PORT or the worker's WORKER_HTTP_PORT):
# liveness, not readiness, so that a database outage does not mark every container unhealthy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/app/docker/entrypoint.sh", "healthcheck"]

ENTRYPOINT ["/usr/bin/tini", "--", "/app/docker/entrypoint.sh"]
CMD ["gateway"]
