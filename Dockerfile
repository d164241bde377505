# syntax=docker/dockerfile:1
# voar-server: the Voar service on Node. Build from the repository root:
#   docker build -t voar-server .
#   docker run -p 8787:8787 -e VOAR_API_KEYS=acme:a-long-random-secret-0001 voar-server
# Configure it with VOAR_* variables (packages/hono-edge/README.md); compose.yaml runs two instances on Redis.
# The image is the private app apps/server (@voar/server): @voar/hono-edge's Node entry plus the packages it
# loads when configured (the embedded simulator, ioredis for the Redis store).

# --- build: install the workspace, compile, and copy out the production app -----------------------------
FROM node:20-slim AS build
RUN npm install --global pnpm@10.34.9
ENV CI=true
WORKDIR /repo
COPY . .
RUN pnpm install --frozen-lockfile --filter "@voar/server..."
RUN pnpm --filter "@voar/server..." build
# The production dependencies only, with the workspace packages' publishConfig applied (see the script).
RUN pnpm --filter @voar/server exec tsx scripts/deploy.ts /deploy

# --- runtime: Node and the deployed app, run as the unprivileged `node` user --------------------------------
FROM node:20-slim
ENV NODE_ENV=production \
    VOAR_PORT=8787 \
    VOAR_HOSTNAME=0.0.0.0
WORKDIR /app
COPY --from=build /deploy /app
RUN ln -s /app/bin/voar-server.js /usr/local/bin/voar-server
USER node
EXPOSE 8787
# node:20-slim has no curl: Node's own fetch asks /health.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.VOAR_PORT||8787)+'/health').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["voar-server"]
