#!/usr/bin/env bash
# Build the VS Code extension into editors/vscode/i18nprune.vsix with @vscode/vsce (pinned in
# package.json). Plain JavaScript: no compile or bundle step; vsce packs extension.js with the
# production dependencies (vscode-languageclient) from node_modules. Works on Node 18 (Debian 12's)
# and later: package.json's override keeps vsce's cheerio at 1.0.0, whose undici still loads on 18.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
npx --no-install vsce package --out i18nprune.vsix --allow-missing-repository
