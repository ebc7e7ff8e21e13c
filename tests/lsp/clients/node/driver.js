#!/usr/bin/env node
// Drives a language server over stdio with Microsoft's protocol client
// (vscode-languageserver-protocol), runs a scenario, and prints one JSON line per event:
//
//   {"initialize": InitializeResult}
//   {"step": n, "op": ..., "method": ..., "params": ..., "result": ...}  (or "error": ResponseError)
//   {"notification": method, "params": ...}     every notification the server sends
//   {"serverRequest": method, "params": ...}    every request the server sends (answered below)
//   {"exit": code, "signal": name, "stderr": text}
//
// Usage: node driver.js SCENARIO, SCENARIO being a JSON file or a JSON text starting with "{":
//
//   {"server": {"command": "python3", "args": ["-m", "i18nprune", "lsp"], "cwd": DIR, "env": {}},
//    "root": DIR,                         rootUri and the one workspace folder
//    "positionEncodings": ["utf-16"],     offered in general.positionEncodings (optional)
//    "timeoutMs": 60000,                  how long a wait may take before the run fails
//    "steps": [STEP, ...]}
//
// Steps (each may have a "name", echoed in its record; "path" is relative to root; "at" is a
// text to find in the document's current text, "offset" counts characters from its start,
// "occurrence" picks the n-th match, from 0):
//   {"op": "open", "path": P, "languageId": ID}         didOpen with the file's text on disk
//   {"op": "change", "path": P, "text": T}              didChange replacing the whole text as one range
//   {"op": "change", "path": P, "at": S, "offset": N, "delete": K, "insert": T}  an incremental edit
//   {"op": "save", "path": P}                           write the document's text to disk, then didSave
//   {"op": "close", "path": P}
//   {"op": "diagnostics", "path": P, "has": [PATTERN], "lacks": [PATTERN]}
//        wait until the latest publish for P since its last open/change has a diagnostic matching
//        each pattern of "has" and none matching a pattern of "lacks"; a pattern names any of
//        severity, code, line (0-based) and messageIncludes
//   {"op": "request", "method": M, "path": P, "at": S, "offset": N, "params": {...}}
//        textDocument and position are filled in from path/at; "range": "document" fills in the
//        whole document's range (inlay hints); "withDiagnostics": true puts the diagnostics last
//        published for P that touch the position into context.diagnostics (code actions).
//   {"op": "resolveCompletion", "from": NAME, "label": L}  completionItem/resolve of the item
//        labelled L in the answer of the completion step named NAME (as an editor does on focus)
//   {"op": "sleepUntilQuiet", "ms": N}                  let N ms pass with no message from the server
// After the last step the driver sends shutdown and exit and waits for the server to end.
'use strict';

const fs = require('fs');
const path = require('path');
const childProcess = require('child_process');
const { pathToFileURL } = require('url');
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-languageserver-protocol/node');

function emit(record) {
  process.stdout.write(JSON.stringify(record) + '\n');
}

function loadScenario(argument) {
  if (!argument) {
    throw new Error('usage: node driver.js SCENARIO (a JSON file or a JSON text)');
  }
  const text = argument.trimStart().startsWith('{') ? argument : fs.readFileSync(argument, 'utf8');
  return JSON.parse(text);
}

// Positions in the negotiated encoding. JavaScript strings are UTF-16 already.
function columnIn(encoding, lineText) {
  if (encoding === 'utf-8') {
    return Buffer.byteLength(lineText, 'utf8');
  }
  if (encoding === 'utf-32') {
    return Array.from(lineText).length;
  }
  return lineText.length;
}

function positionOf(text, index, encoding) {
  const before = text.slice(0, index);
  const line = before.split('\n').length - 1;
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line, character: columnIn(encoding, text.slice(lineStart, index)) };
}

function findIndex(text, needle, occurrence) {
  let index = -1;
  for (let n = 0; n <= (occurrence || 0); n += 1) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) {
      throw new Error(`${JSON.stringify(needle)} (occurrence ${occurrence || 0}) is not in the document`);
    }
  }
  return index;
}

// A diagnostic matches a pattern when each field the pattern names agrees: severity, code,
// line (of its start) and messageIncludes (a text its message contains).
function matches(diagnostic, pattern) {
  return (
    (pattern.severity === undefined || diagnostic.severity === pattern.severity) &&
    (pattern.code === undefined || diagnostic.code === pattern.code) &&
    (pattern.line === undefined || diagnostic.range.start.line === pattern.line) &&
    (pattern.messageIncludes === undefined || diagnostic.message.includes(pattern.messageIncludes))
  );
}

function touches(range, position) {
  const after = (a, b) => a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}

let child; // the server, killed if the scenario fails
let stderr = '';

async function main() {
  const scenario = loadScenario(process.argv[2]);
  const root = path.resolve(scenario.root);
  const timeoutMs = scenario.timeoutMs || 60000;
  const server = scenario.server;
  child = childProcess.spawn(server.command, server.args || [], {
    cwd: server.cwd || root,
    env: { ...process.env, ...(server.env || {}) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });

  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );

  const documents = new Map(); // uri -> {text, version, languageId}
  const published = new Map(); // uri -> [params, ...]
  const marks = new Map(); // uri -> how many publishes there were at the last open/change
  const results = new Map(); // step name -> the server's answer
  let lastMessageAt = Date.now();
  let waiters = [];
  const wake = () => {
    lastMessageAt = Date.now();
    const pending = waiters;
    waiters = [];
    pending.forEach((wakeUp) => wakeUp());
  };
  const waitFor = (what, check) =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const poll = () => {
        const found = check();
        if (found !== undefined) {
          resolve(found);
        } else if (Date.now() > deadline) {
          reject(new Error(`gave up waiting for ${what} after ${timeoutMs} ms`));
        } else {
          waiters.push(poll);
          setTimeout(() => wake(), Math.min(200, timeoutMs));
        }
      };
      poll();
    });

  connection.onNotification((method, params) => {
    emit({ notification: method, params });
    if (method === 'textDocument/publishDiagnostics') {
      const list = published.get(params.uri) || [];
      list.push(params);
      published.set(params.uri, list);
    }
    wake();
  });
  connection.onRequest((method, params) => {
    emit({ serverRequest: method, params });
    wake();
    if (method === 'workspace/configuration') {
      return (params.items || []).map(() => null);
    }
    if (method === 'workspace/workspaceFolders') {
      return [{ uri: pathToFileURL(root).href, name: path.basename(root) }];
    }
    if (method === 'workspace/applyEdit') {
      return { applied: false, failureReason: 'the test client records edits, it does not apply them' };
    }
    return null; // window/workDoneProgress/create, client/registerCapability, ...
  });
  connection.onError(([error]) => emit({ connectionError: String(error) }));
  connection.listen();

  const uriOf = (relative) => pathToFileURL(path.join(root, relative)).href;
  const initialize = {
    processId: process.pid,
    clientInfo: { name: 'i18nprune-tests-node', version: '0' },
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: path.basename(root) }],
    capabilities: {
      general: scenario.positionEncodings ? { positionEncodings: scenario.positionEncodings } : {},
      workspace: { workspaceFolders: true, configuration: true, applyEdit: true, workspaceEdit: { documentChanges: true } },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] }, versionSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
        definition: { linkSupport: false },
        inlayHint: {},
        codeAction: {
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } },
        },
        rename: { prepareSupport: true },
      },
      window: { workDoneProgress: true },
    },
  };
  const initialized = await connection.sendRequest('initialize', initialize);
  emit({ initialize: initialized });
  const encoding = (initialized.capabilities && initialized.capabilities.positionEncoding) || 'utf-16';
  await connection.sendNotification('initialized', {});

  const mark = (uri) => marks.set(uri, (published.get(uri) || []).length);

  for (const [number, step] of scenario.steps.entries()) {
    const uri = step.path === undefined ? undefined : uriOf(step.path);
    const document = uri && documents.get(uri);
    const positionFrom = (text) =>
      positionOf(text, findIndex(text, step.at, step.occurrence) + (step.offset || 0), encoding);
    if (step.op === 'open') {
      const text = fs.readFileSync(path.join(root, step.path), 'utf8');
      documents.set(uri, { text, version: 1, languageId: step.languageId });
      mark(uri);
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: step.languageId, version: 1, text },
      });
      emit({ step: number, name: step.name, op: 'open', path: step.path });
    } else if (step.op === 'change') {
      let change;
      let text;
      if (step.text !== undefined) {
        const end = positionOf(document.text, document.text.length, encoding);
        change = { range: { start: { line: 0, character: 0 }, end }, text: step.text };
        text = step.text;
      } else {
        const start = findIndex(document.text, step.at, step.occurrence) + (step.offset || 0);
        const stop = start + (step.delete || 0);
        change = {
          range: { start: positionOf(document.text, start, encoding), end: positionOf(document.text, stop, encoding) },
          text: step.insert || '',
        };
        text = document.text.slice(0, start) + (step.insert || '') + document.text.slice(stop);
      }
      document.text = text;
      document.version += 1;
      mark(uri);
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: document.version },
        contentChanges: [change],
      });
      emit({ step: number, name: step.name, op: 'change', path: step.path, version: document.version, change });
    } else if (step.op === 'save') {
      fs.writeFileSync(path.join(root, step.path), document.text, 'utf8');
      mark(uri);
      await connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
      emit({ step: number, name: step.name, op: 'save', path: step.path });
    } else if (step.op === 'close') {
      documents.delete(uri);
      await connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      emit({ step: number, name: step.name, op: 'close', path: step.path });
    } else if (step.op === 'diagnostics') {
      const wanted = (p) =>
        (step.has || []).every((pattern) => p.diagnostics.some((d) => matches(d, pattern))) &&
        (step.lacks || []).every((pattern) => !p.diagnostics.some((d) => matches(d, pattern)));
      const result = await waitFor(`diagnostics of ${step.path} (${JSON.stringify(step)})`, () => {
        const fresh = (published.get(uri) || []).slice(marks.get(uri) || 0);
        const latest = fresh[fresh.length - 1];
        return latest && wanted(latest) ? latest : undefined;
      });
      emit({ step: number, name: step.name, op: 'diagnostics', path: step.path, result });
    } else if (step.op === 'sleepUntilQuiet') {
      await waitFor(`${step.ms} quiet ms`, () => (Date.now() - lastMessageAt >= step.ms ? true : undefined));
      emit({ step: number, name: step.name, op: 'sleepUntilQuiet' });
    } else if (step.op === 'resolveCompletion') {
      const answered = results.get(step.from);
      const items = Array.isArray(answered) ? answered : answered.items;
      const item = items.find((candidate) => candidate.label === step.label);
      if (!item) {
        throw new Error(`no completion item ${step.label} in step ${step.from}`);
      }
      const result = await connection.sendRequest('completionItem/resolve', item);
      emit({ step: number, name: step.name, op: 'resolveCompletion', params: item, result });
    } else if (step.op === 'request') {
      const params = { ...(step.params || {}) };
      if (uri) {
        params.textDocument = { uri };
        const text = document ? document.text : fs.readFileSync(path.join(root, step.path), 'utf8');
        if (step.at !== undefined) {
          params.position = positionFrom(text);
        }
        if (step.range === 'document') {
          params.range = { start: { line: 0, character: 0 }, end: positionOf(text, text.length, encoding) };
        } else if (step.at !== undefined && step.method === 'textDocument/codeAction') {
          params.range = { start: params.position, end: params.position };
          delete params.position;
        }
        if (step.withDiagnostics) {
          const all = published.get(uri) || [];
          const latest = all.length ? all[all.length - 1].diagnostics : [];
          const here = params.range ? params.range.start : params.position;
          params.context = { ...(params.context || {}), diagnostics: latest.filter((d) => touches(d.range, here)) };
        }
      }
      try {
        const result = await connection.sendRequest(step.method, params);
        if (step.name !== undefined) {
          results.set(step.name, result);
        }
        emit({ step: number, name: step.name, op: 'request', method: step.method, params, result });
      } catch (error) {
        emit({ step: number, name: step.name, op: 'request', method: step.method, params, error: { code: error.code, message: error.message, data: error.data } });
      }
    } else {
      throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }

  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await exited;
  clearTimeout(timer);
  connection.dispose();
  emit({ exit: code, signal, stderr });
}

main().catch((error) => {
  emit({ failed: String(error && error.stack ? error.stack : error), stderr });
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
  }
  process.exit(1);
});
