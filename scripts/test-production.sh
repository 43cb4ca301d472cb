#!/usr/bin/env bash
# npm run test:production (docs/operations.md "Its tests"): the production path against real
# servers. Starts the EventStoreDB and MongoDB services of docker-compose.yml in a compose project
# of its own, waits until both are healthy (MongoDB: the primary of its replica set), runs the
# adapter contract suites (test/contract) and the production stack e2e
# (test/e2e/production-stack.e2e-spec.ts) against them, and removes the containers and their
# volumes whatever happened.
#
# Without Docker it prints one SKIPPED line and exits 0, so `npm test` can run it everywhere.
# Ports: EventStoreDB 2113 and MongoDB 27017 on localhost, as docker-compose.yml publishes them.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
  echo "test:production SKIPPED: Docker is not available here (docker info failed), so the EventStoreDB and MongoDB suites did not run"
  exit 0
fi
if ! docker compose version >/dev/null 2>&1; then
  echo "test:production FAILED: Docker is here but 'docker compose' (v2) is not; install the compose plugin" >&2
  exit 1
fi

project="trainee-records-test-$$"
cleanup() {
  docker compose -p "$project" down -v --remove-orphans >/dev/null 2>&1 || true
}
trap cleanup EXIT

# docker-compose.yml names the service key file as a secret; a key for this run where none is kept.
[ -f data-key ] || (umask 077 && node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64'))" > data-key)

echo "test:production: starting EventStoreDB and MongoDB (compose project $project)"
docker compose -p "$project" up -d --wait eventstore mongodb

export EVENTSTORE_URL="esdb://localhost:2113?tls=false"
# The replica set names its member by its compose host name; connect to it directly from here.
export MONGODB_URL="mongodb://localhost:27017/?directConnection=true"

echo "test:production: contract suites and the production stack e2e against EVENTSTORE_URL and MONGODB_URL"
npx jest --runInBand test/contract test/e2e/production-stack
