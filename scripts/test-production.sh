#!/usr/bin/env bash
# npm run test:production (docs/operations.md "Its tests"): the production path against real
# servers, in two compose projects of its own, one after the other, each removed with its volumes
# whatever happened:
#
# 1. the whole stack of docker-compose.yml as an operator starts it ("Run the production stack"):
#    the image built, the service key made with `admin keys init` in the keys volume, EventStoreDB,
#    MongoDB, the API and the projector up and healthy; then /healthz and /readyz of the API and the
#    projector, and a GET with the sandbox token the API printed; then `admin keys rotate` in the
#    API's container, and a trainee written and read back, which the projector projects only by
#    reading the rotated keyring from the shared volume, with neither container restarted;
# 2. EventStoreDB and MongoDB alone, fresh, for the adapter contract suites (test/contract) and the
#    production stack e2e (test/e2e/production-stack.e2e-spec.ts), run from this machine.
#
# Two projects, not one: each deployment seals personal data under a key of its own, and its
# processes project the whole log, so neither could read the other's trainees.
#
# Without Docker it prints one SKIPPED line and exits 0, so `npm test` can run it everywhere.
# Ports on localhost, as docker-compose.yml publishes them: EventStoreDB 2113, MongoDB 27017, the
# API 3000 and the projector 3001; none may be in use.
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

stack="trainee-records-test-$$-stack"
servers="trainee-records-test-$$-servers"
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    docker compose -p "$stack" logs --no-color --tail 100 api projector >&2 2>/dev/null || true
  fi
  for project in "$stack" "$servers"; do
    docker compose -p "$project" down -v --remove-orphans >/dev/null 2>&1 || true
  done
}
trap cleanup EXIT

fail() {
  echo "test:production FAILED: $*" >&2
  exit 1
}

# request METHOD URL [TOKEN] [JSON_FILE]: prints the answer's status, a space, and its body.
request() {
  node -e '
    const [method, url, token, file] = process.argv.slice(1);
    const headers = token ? { authorization: "Bearer " + token } : {};
    if (file) headers["content-type"] = "application/json";
    const body = file ? require("node:fs").readFileSync(file) : undefined;
    fetch(url, { method, headers, body }).then(
      async (res) => console.log(res.status, await res.text()),
      (err) => console.log(0, err.message),
    );
  ' "$@"
}

# expect_status STATUS METHOD URL [TOKEN] [JSON_FILE]: the request, tried once a second for up to 30 s
# until it answers STATUS (a container may still be catching up); prints the body.
expect_status() {
  local want=$1 answer=''
  shift
  for _ in $(seq 30); do
    answer=$(request "$@")
    if [ "${answer%% *}" = "$want" ]; then
      printf '%s\n' "${answer#* }"
      return 0
    fi
    sleep 1
  done
  fail "$1 $2 answered '${answer:0:300}', not $want"
}

echo "test:production: the whole stack of docker-compose.yml (compose project $stack)"
docker compose -p "$stack" build
docker compose -p "$stack" run --rm --no-deps api npm run --silent admin -- keys init
docker compose -p "$stack" up -d --wait
for url in http://localhost:3000/healthz http://localhost:3000/readyz http://localhost:3001/healthz http://localhost:3001/readyz; do
  expect_status 200 GET "$url" >/dev/null
done
logs=$(docker compose -p "$stack" logs --no-color --no-log-prefix api)
token=$(grep -m 1 -oE 'sandbox_[0-9a-f]{64}' <<<"$logs" || true)
[ -n "$token" ] || fail "the API printed no sandbox token"
expect_status 200 GET http://localhost:3000/api/v2025.0/info "$token" >/dev/null

echo "test:production: keys rotate in the API's container; the projector reads the new keyring from the keys volume"
rotated=$(docker compose -p "$stack" exec -T api npm run --silent admin -- keys rotate)
grep -qx 'Version 2 is current.' <<<"$rotated" || fail "keys rotate in the API's container said: $rotated"
# Every data key is now wrapped under version 2, which the projector did not hold when it started:
# the trainee is read back only once the projector has opened its key with the rotated file.
created=$(request POST http://localhost:3000/api/v2025.0/trainees "$token" samples/trainee-v2025.0.json)
[ "${created%% *}" = 201 ] || fail "POST /api/v2025.0/trainees after the rotation answered '${created:0:300}', not 201"
id=$(node -e 'console.log(JSON.parse(process.argv[1]).data.trainee_id)' "${created#* }")
read_back=$(expect_status 200 GET "http://localhost:3000/api/v2025.0/trainees/$id" "$token")
grep -q '"first_names":"John"' <<<"$read_back" || fail "the trainee read back without its first names: ${read_back:0:300}"
for url in http://localhost:3000/readyz http://localhost:3001/readyz; do
  expect_status 200 GET "$url" >/dev/null
done
for service in api projector; do
  restarts=$(docker inspect -f '{{.RestartCount}}' "$(docker compose -p "$stack" ps -q "$service")")
  [ "$restarts" = 0 ] || fail "the $service container restarted $restarts times"
done
docker compose -p "$stack" down -v --remove-orphans

echo "test:production: starting EventStoreDB and MongoDB alone (compose project $servers)"
docker compose -p "$servers" up -d --wait eventstore mongodb

export EVENTSTORE_URL="esdb://localhost:2113?tls=false"
# The replica set names its member by its compose host name; connect to it directly from here.
export MONGODB_URL="mongodb://localhost:27017/?directConnection=true"

echo "test:production: contract suites and the production stack e2e against EVENTSTORE_URL and MONGODB_URL"
npx jest --runInBand test/contract test/e2e/production-stack
