#!/bin/sh
# `npm run test:integration`: the extension inside real VS Codes (code-server + Chromium), on the
# newest release we support and on the oldest (the one package.json's engines.vscode names), as
# rust-analyzer does:
#  1. install each code-server (into .vscode-test/) and Chromium on first use;
#  2. check that engines.vscode names the oldest VS Code tested here;
#  3. package lore.vsix from a production build (npm run package);
#  4. rebuild for development (source maps) and compile the integration suite;
#  5. per VS Code: run the suite with Lore as the extension under development (runIntegration.mjs),
#     then its no-folder suite in an empty window (--no-folder), the first-run walk on a newcomer's
#     machine with real agent sessions (--first-run), then install lore.vsix into a fresh
#     code-server and check it activates (vsixInstall.mjs).
# Run it through scripts/withNode24.sh (the npm script does). Arguments go to runIntegration.mjs,
# e.g. `npm run test:integration -- --keep`. LORE_ITEST_CODE_SERVERS picks the releases, e.g.
# LORE_ITEST_CODE_SERVERS=4.139.1 for the newest only. `--install-only` does step 1 and stops
# (`npm test` runs that in the background while the other groups run).
set -eu
cd "$(dirname "$0")/.."
# code-server releases: 4.139.1 = VS Code 1.139.1, 4.103.2 = VS Code 1.103.2 (the npm registry has
# no 4.101/4.102). Raise the oldest together with engines.vscode.
ALL="4.139.1 4.103.2"
VERSIONS=${LORE_ITEST_CODE_SERVERS:-$ALL}
for v in $VERSIONS; do
  LORE_CODE_SERVER_VERSION=$v sh scripts/ensureCodeServer.sh
done
[ "${1:-}" = "--install-only" ] && exit 0
# The claim is about the whole set: a run on a subset cannot check it.
if [ "$VERSIONS" = "$ALL" ]; then
  node scripts/checkEngines.mjs $VERSIONS
else
  echo "lore: on $VERSIONS only: engines.vscode not checked against the oldest tested VS Code" >&2
fi
npm run --silent package
npm run --silent build
npm run --silent compile-integration
# Every check runs even when one fails; the exit code says whether any failed.
failed=""
for v in $VERSIONS; do
  LORE_CODE_SERVER_VERSION=$v node test/integration/runIntegration.mjs "$@" || failed="$failed suite@$v"
  LORE_CODE_SERVER_VERSION=$v node test/integration/runIntegration.mjs --no-folder "$@" || failed="$failed no-folder@$v"
  LORE_CODE_SERVER_VERSION=$v node test/integration/runIntegration.mjs --first-run "$@" || failed="$failed first-run@$v"
  LORE_CODE_SERVER_VERSION=$v node test/integration/vsixInstall.mjs || failed="$failed vsix@$v"
done
if [ -n "$failed" ]; then
  echo "lore: integration tests failed:$failed" >&2
  exit 1
fi
