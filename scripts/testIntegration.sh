#!/bin/sh
# `npm run test:integration`: the extension inside a real VS Code (code-server + Chromium).
#  1. install code-server (into .vscode-test/) and Chromium on first use;
#  2. package lore.vsix from a production build (npm run package);
#  3. rebuild for development (source maps) and compile the integration suite;
#  4. run the suite with Lore as the extension under development (runIntegration.mjs);
#  5. install lore.vsix into a fresh code-server and check it activates (vsixInstall.mjs).
# Run it through scripts/withNode24.sh (the npm script does). Arguments go to runIntegration.mjs,
# e.g. `npm run test:integration -- --keep`.
set -eu
cd "$(dirname "$0")/.."
sh scripts/ensureCodeServer.sh
npm run --silent package
npm run --silent build
npm run --silent compile-integration
# Both checks run even when the first fails; the exit code says whether either failed.
suite=0
node test/integration/runIntegration.mjs "$@" || suite=$?
vsix=0
node test/integration/vsixInstall.mjs || vsix=$?
if [ "$suite" -ne 0 ] || [ "$vsix" -ne 0 ]; then
  echo "lore: integration tests failed (suite: exit $suite, VSIX check: exit $vsix)" >&2
  exit 1
fi
