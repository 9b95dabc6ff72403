# The notes app as a container image: build in one stage, run only the
# production build (Next's standalone build served by npm start's own server, and the bundled release step) as
# an unprivileged user in the other. Configuration comes from the environment
# only (.env.example lists it); APP_URL, DATABASE_URL, IDENTITY_API_URL,
# IDENTITY_PARTNER_KEY and BETTER_AUTH_SECRET are required.
#
#   docker build -t notes .
#   docker run --rm --env-file notes.env notes node migrate.mjs   # release step, once per release
#   docker run -d -p 3000:3000 --env-file notes.env notes          # serve
#
# tests/e2e/deploy.test.ts builds the same folder (npm run build:standalone)
# and runs it the same way, as an unprivileged user with only these variables.

FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc ./
COPY scripts/generate-client.mjs scripts/generate-client.mjs
COPY prisma prisma
COPY prisma.config.ts ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npm run build:standalone

FROM node:22-bookworm-slim AS run
WORKDIR /app
# One malloc arena instead of glibc's eight per core: each thread's arena keeps
# the memory it freed (scripts/lib/server-options.ts has the measurement).
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0 MALLOC_ARENA_MAX=1
# The image's own unprivileged user (uid 1000); nothing in /app is writable but the build's cache folder.
COPY --from=build --chown=root:root /app/dist/container ./
RUN mkdir -p .next/cache && chown node:node .next/cache
USER node
EXPOSE 3000
# The same heap flags as `npm start` (scripts/lib/server-options.ts).
CMD ["node", "--max-old-space-size=256", "--heap-growing-percent=50", "--max-semi-space-size=8", "serve.mjs"]
