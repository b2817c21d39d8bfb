// The VS Code client of `pgconflint server`: starts the server for pgconf
// (postgresql.conf, postgresql.auto.conf, conf.d/*.conf), pghba (pg_hba.conf)
// and pgident (pg_ident.conf) documents, passes the pgconflint.* settings as
// initializationOptions, and restarts it when they change. Everything else
// (diagnostics, hover, completion, code actions, inlay hints, links, the
// live server's commands, which vscode-languageclient registers from the
// server's executeCommandProvider) comes from the server.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { postgresLanguage } from './detect';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;
let extensionPath = '';

// The server binary: pgconflint.serverPath (or its former name pgconflint.path) when
// the user set it, else the one the .vsix carries (server/pgconflint, scripts/release.sh),
// else pgconflint on PATH.
function serverCommand(config: vscode.WorkspaceConfiguration): string {
  for (const key of ['serverPath', 'path']) {
    const set = config.inspect<string>(key);
    const chosen = set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
    if (chosen) {
      return chosen;
    }
  }
  const bundled = extensionPath ? `${extensionPath}/server/pgconflint` : '';
  if (bundled && fs.existsSync(bundled)) {
    return bundled;
  }
  return 'pgconflint';
}

// The settings as the server reads them (see editors/README.md).
function initializationOptions(config: vscode.WorkspaceConfiguration): Record<string, unknown> {
  const options: Record<string, unknown> = {
    profile: config.get<Record<string, string | number | boolean>>('profile', {}),
    run: config.get<string>('run', 'onType'),
    'extra-rules': config.get<string[]>('extraRules', []),
  };
  const major = config.get<number | null>('pgVersion', null);
  if (major) {
    options['pg-version'] = major;
  }
  const conninfo = config.get<string>('live.conninfo', '');
  if (conninfo) {
    options.live = { conninfo, allowWrites: config.get<boolean>('live.allowWrites', false) };
  }
  return options;
}

async function start(): Promise<void> {
  const config = vscode.workspace.getConfiguration('pgconflint');
  const serverOptions: ServerOptions = {
    command: serverCommand(config),
    args: ['server'],
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    // The server tells the three kinds apart by the file name, not by the
    // language id.
    documentSelector: [
      { scheme: 'file', language: 'pgconf' },
      { scheme: 'file', language: 'pghba' },
      { scheme: 'file', language: 'pgident' },
    ],
    initializationOptions: initializationOptions(config),
  };
  client = new LanguageClient('pgconflint', 'pgconflint', serverOptions, clientOptions);
  await client.start();
}

async function restart(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
  await start();
}

// A .conf file that is PostgreSQL's by its data directory or first line gets its language
// (VS Code gives one by name only: postgresql.conf, pg_hba.conf, ...).
function claim(document: vscode.TextDocument): void {
  if (document.uri.scheme !== 'file' || ['pgconf', 'pghba', 'pgident'].includes(document.languageId)) {
    return;
  }
  const language = postgresLanguage(document.fileName);
  if (language) {
    void vscode.languages.setTextDocumentLanguage(document, language);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  vscode.workspace.textDocuments.forEach(claim);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(claim));
  context.subscriptions.push(
    vscode.commands.registerCommand('pgconflint.restart', restart),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('pgconflint')) {
        await restart();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
