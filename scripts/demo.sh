#!/bin/sh
# Lore's main job on its embedded default (the offline `rules` extractor, no API key):
# build, create a demo workspace with a store, put the bundled example conversations in its
# inbox, harvest them (dry run, then apply), and print the report, the digest and a file's notes.
set -eu
npm run --silent build
rm -rf demo
mkdir -p demo
cp -R examples/workspace/. demo/
LORE="node dist/cli.js"
$LORE init --root demo/.lore
cp examples/conversations/* demo/.lore/inbox/

echo; echo "== lore harvest (dry run: classify and estimate, nothing written)"
$LORE harvest --root demo/.lore
echo; echo "== lore harvest --apply"
$LORE harvest --root demo/.lore --apply --quiet
echo; echo "== demo/.lore/digest.md"
cat demo/.lore/digest.md
echo; echo "== lore notes demo/src/orders.ts"
$LORE notes demo/src/orders.ts --root demo/.lore
echo
echo "The store is in demo/.lore (category files, files/, digest.md, ledger.json)."
echo "Run it yourself: node dist/cli.js --help"
