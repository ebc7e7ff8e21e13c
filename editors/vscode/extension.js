// The i18nprune extension: starts `i18nprune lsp` and hands it the documents it serves. Every
// feature is the server's; this file only starts it (again when its settings change).
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

const LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'vue', 'svelte', 'json'];
let client;

function serverOptions() {
  const settings = vscode.workspace.getConfiguration('i18nprune');
  const args = ['lsp'];
  if (settings.get('allowWrites')) {
    args.push('--allow-writes');
  }
  // No transport: the client speaks over the process's stdin/stdout and adds no `--stdio` flag.
  return { command: settings.get('path') || 'i18nprune', args };
}

async function start() {
  client = new LanguageClient('i18nprune', 'i18nprune', serverOptions(), {
    documentSelector: LANGUAGES.map((language) => ({ scheme: 'file', language })),
  });
  await client.start();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('i18nprune.path') || event.affectsConfiguration('i18nprune.allowWrites')) {
        await client.stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
