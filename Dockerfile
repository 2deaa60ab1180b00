# Vertragsgenerator: one image for every replica (docs/operations.md).
#   docker build -t vertragsgenerator .
#   docker build --build-arg LIBREOFFICE=true -t vertragsgenerator:pdf .   # with PDF renditions

FROM node:26-bookworm-slim AS build
WORKDIR /app
# Manifests first: the dependency layer is rebuilt only when they change, not on every source edit.
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/domain packages/domain
COPY apps/server apps/server
COPY apps/web apps/web
# The build bundles the compiled server for a faster start (apps/server/src/server-bundle.ts).
COPY scripts/bundle-server.mjs scripts/
RUN npm run build

FROM node:26-bookworm-slim AS runtime
# LibreOffice only serves the PDF renditions of the signing pages; without it the browser renders the
# DOCX. It adds about 430 MB, so it is opt-in. Carlito stands in for the templates' Calibri.
ARG LIBREOFFICE=false
RUN if [ "$LIBREOFFICE" = "true" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends libreoffice-writer-nogui fonts-crosextra-carlito fonts-dejavu-core \
      && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
# Only what the server imports at run time; the SPA's packages end up in its built files. No
# dependency of the server needs an install script.
RUN npm ci --omit=dev --workspace=apps/server --workspace=packages/domain --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force
COPY --from=build /app/packages/domain/dist packages/domain/dist
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# Read at start and at every render: companies, signatories, demo data and CRM mappings; the templates.
COPY config config
COPY templates templates

# PostgreSQL holds all state (DATABASE_URL). DATA_DIR keeps the embedded database of a single
# container without DATABASE_URL, and .eml files when no SMTP_URL is set.
ENV PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
# As `npm start`: glibc gives blocks of 4 MiB and more back once freed, instead of keeping them after
# the first large one (password hashing takes 16 MB per thread): about 30 to 140 MiB less resident
# memory once idle (docs/performance.md, Start).
ENV MALLOC_MMAP_THRESHOLD_=4194304
# As `npm start`: the main thread's semi-spaces (its young generation) at most 2 MB instead of 16, as
# the worker threads' are capped (apps/server/src/shared/worker-module.ts): V8 grows them under load
# and keeps what it grew to; through a day's flows the server peaked about 18 MiB lower than with 4 MB,
# for 3–7 % more CPU per flow (docs/decisions.md, A server that stays small).
ENV NODE_OPTIONS=--max-semi-space-size=2
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/backend/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/server/dist/main.js"]
