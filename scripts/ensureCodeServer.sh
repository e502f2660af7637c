#!/bin/sh
# Installs, on first use, what the integration tests and `npm start` need outside node_modules:
# code-server (VS Code served to a browser) in the git-ignored .vscode-test/, and Debian's
# Chromium to drive it. Quiet when everything is already in place. Run it with Node 24 first on
# PATH (scripts/withNode24.sh does that): code-server checks the Node that installs it.
#
# Overrides: LORE_CODE_SERVER_VERSION (default below), LORE_CHROMIUM (a browser binary to use
# instead of /usr/bin/chromium; nothing is installed then).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CS_VERSION=${LORE_CODE_SERVER_VERSION:-4.139.1}
CS_PREFIX="$ROOT/.vscode-test/code-server/$CS_VERSION"
CS_STAMP="$CS_PREFIX/.installed"
CHROMIUM=${LORE_CHROMIUM:-/usr/bin/chromium}

say() { echo "lore: $*" >&2; }

# apt-get install for the Debian packages that are not installed yet; refreshes the package
# lists only when the first attempt fails (stale or missing lists on a fresh machine).
apt_install() {
  missing=""
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
      missing="$missing $pkg"
    fi
  done
  [ -z "$missing" ] && return 0
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      SUDO="sudo -n"
    else
      say "missing Debian packages:$missing; install them as root (apt-get install -y$missing)"
      exit 1
    fi
  fi
  say "installing Debian packages:$missing ..."
  log="${TMPDIR:-/tmp}/lore-apt.$$.log"
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >"$log" 2>&1; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$log" 2>&1 || true
    if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >>"$log" 2>&1; then
      tail -n 30 "$log" >&2
      say "apt-get install failed (full log: $log)"
      exit 1
    fi
  fi
  rm -f "$log"
}

# code-server: a stamp written after a complete install, so an interrupted one is redone.
if [ ! -f "$CS_STAMP" ] || [ ! -f "$CS_PREFIX/node_modules/code-server/out/node/entry.js" ]; then
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 24 ]; then
    say "code-server $CS_VERSION needs Node 24 to install; run this through scripts/withNode24.sh"
    exit 1
  fi
  # kerberos (a code-server dependency) builds from source.
  apt_install build-essential python3 libkrb5-dev
  say "installing code-server $CS_VERSION into .vscode-test/ (first use only, about 2 minutes, 600 MB) ..."
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  # Node 24's own headers for native builds (~/.npmrc may point nodedir at another Node's).
  NODE_DIR=$(dirname "$(dirname "$(command -v node)")")
  if [ -f "$NODE_DIR/include/node/node.h" ]; then
    npm_config_nodedir="$NODE_DIR"
    export npm_config_nodedir
  fi
  log="$CS_PREFIX/install.log"
  # An empty package.json keeps npm from walking up to the repository's own package.json.
  echo '{"name":"lore-code-server","private":true}' >"$CS_PREFIX/package.json"
  # When this runs under `npm run` started by the system npm (Node 20), that npm exported
  # npm_config_user_agent ("... node/v20 ..."), which the nested npm takes as its own config;
  # code-server's postinstall reads the Node version from it and refuses Node 20.
  unset npm_config_user_agent
  if ! npm install --prefix "$CS_PREFIX" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "code-server@$CS_VERSION" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    say "code-server install failed (full log: $log)"
    exit 1
  fi
  touch "$CS_STAMP"
  say "code-server $CS_VERSION installed"
fi

if [ ! -x "$CHROMIUM" ]; then
  if [ -n "${LORE_CHROMIUM:-}" ]; then
    say "LORE_CHROMIUM=$LORE_CHROMIUM is not an executable"
    exit 1
  fi
  apt_install chromium
fi
