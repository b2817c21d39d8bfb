// Which *.conf files are PostgreSQL's, for files VS Code did not already give
// a pgconflint language by name (postgresql.conf, postgresql.auto.conf,
// pg_hba.conf, pg_ident.conf). The rules of every editor integration
// (editors/README.md; Neovim's are lua/pgconflint/detect.lua):
//   "# pgconflint: file-type=conf|hba|ident" on the first line;
//   a .conf beside a postgresql.conf (its data or configuration directory);
//   a .conf in a directory that the postgresql.conf (or pg_hba.conf) of the
//   directory above names in an include line (conf.d/10-memory.conf with
//   `include_dir = 'conf.d'`).
// Another program's conf.d (nginx's) has no such postgresql.conf: undefined.
import * as fs from 'fs';
import * as path from 'path';

export type PostgresLanguage = 'pgconf' | 'pghba' | 'pgident';

const markerLanguages: Record<string, PostgresLanguage> = { conf: 'pgconf', hba: 'pghba', ident: 'pgident' };

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function readLines(file: string, limit: number): string[] {
  try {
    return fs.readFileSync(file, 'utf8').split(/\r?\n/).slice(0, limit);
  } catch {
    return [];
  }
}

// Whether an include line of `conf` (include, include_if_exists, include_dir) names `name`
// as a component of its path (`include_dir = 'conf.d'`, `include 'conf.d/a.conf'`).
function includes(conf: string, name: string): boolean {
  return readLines(conf, 5000).some((line) => {
    const m = /^\s*include\w*(?:\s*=\s*|\s+)'?([^'#]*)/.exec(line);
    return m !== null && m[1].trim().split('/').includes(name);
  });
}

/** The language of `file`, or undefined when it is not PostgreSQL's. */
export function postgresLanguage(file: string): PostgresLanguage | undefined {
  if (!file.endsWith('.conf')) {
    return undefined;
  }
  const first = readLines(file, 1)[0] ?? '';
  const marker = /^\s*#\s*pgconflint:\s*file-type\s*=\s*(\w+)/.exec(first);
  if (marker) {
    return markerLanguages[marker[1]];
  }
  const dir = path.dirname(file);
  if (isFile(path.join(dir, 'postgresql.conf'))) {
    return 'pgconf';
  }
  const parent = path.dirname(dir);
  const sub = path.basename(dir);
  if (isFile(path.join(parent, 'postgresql.conf')) && includes(path.join(parent, 'postgresql.conf'), sub)) {
    return 'pgconf';
  }
  if (isFile(path.join(parent, 'pg_hba.conf')) && includes(path.join(parent, 'pg_hba.conf'), sub)) {
    return 'pghba';
  }
  return undefined;
}
