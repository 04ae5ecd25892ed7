# recd image: `docker build -t recd .`, then `docker compose up` (compose.yaml) for recd with its Redis.
# Two stages: the build stage has the compilers (tsc, AssemblyScript); the runtime stage only the
# production dependencies, the compiled dist/ and redis.conf.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace's manifest, which npm ci needs to install the lockfile (packages/client: the typed client).
COPY packages/client/package.json ./packages/client/
# --ignore-scripts: `prepare` would build before the sources are here; the build runs below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json redis.conf ./
COPY src ./src
COPY test ./test
COPY bench ./bench
COPY scripts ./scripts
# The web dashboard's sources, bundled into dist/dashboard/ by the build.
COPY dashboard ./dashboard
COPY packages/client ./packages/client
COPY native-free-kernels ./native-free-kernels
RUN npm run build

FROM node:20-bookworm-slim AS runtime
# redis-server serves the embedded mode (no REDIS_URL); compose.yaml uses a Redis service instead.
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
# --ignore-scripts: no `prepare` build (the compilers are dev dependencies) and no install-time telemetry.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY redis.conf LICENSE ./
RUN mkdir -p /data && chown node:node /data
# What `npm start` sets: fewer glibc arenas, large buffers returned to the system at once.
ENV MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8080 \
    RECD_DATA_DIR=/data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Healthy means ready to serve: /readyz answers 200 once recd listens and its Redis answers (503 otherwise).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["serve"]
