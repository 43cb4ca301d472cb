# One image for the API and the projector (docker-compose.yml picks the command).

# --- build: compile TypeScript ---------------------------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps apps
COPY libs libs
RUN npm run build

# --- runtime: production dependencies only, non-root ----------------------------------------
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# better-sqlite3 (the embedded default) is native: build tools only for the install, then removed.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev \
 && npm cache clean --force \
 && apt-get purge -y python3 make g++ && apt-get autoremove -y \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/dist ./dist
COPY samples ./samples
# The pre-script of `npm start`, `npm run admin` and `npm run projector`; with no sources here it builds nothing.
COPY scripts/build-if-needed.js ./scripts/
# /backups and /run/keys: the compose file's backup and key volumes (docs/operations.md "Backups and restore", "The service
# key"), owned by the service's user, 0700; a new named volume takes the owner and mode of the directory it is mounted on.
RUN mkdir -p /app/data /backups /run/keys && chown node:node /app/data /backups /run/keys && chmod 0700 /backups /run/keys
USER node
ENV PORT=3000 DATA_DIR=/app/data HOST=0.0.0.0
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
