// The speed reference for a warm `kb search` (scripts/search-bench.mjs):
// the least a search on kb's own runtime can do. A Bun program, compiled
// with `bun build --compile` as kb is, that keeps an SQLite FTS5 index of a
// folder's text files and, on every search, first stats every indexed file
// (as an index that notices edits made in place must: a changed file is
// read and indexed again), then answers from FTS5: bm25 rank, a snippet
// each, ten results.
//
//   search-reference index DB DIR     build the index of DIR's files
//   search-reference search DB DIR Q  stat, update, answer Q
//
// Bench scripts only: kb's own code (src/) never uses bun:sqlite.

import { Database } from 'bun:sqlite';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [mode, dbPath, dir, ...words] = process.argv.slice(2);

/** Every non-hidden regular file below `root`, relative. */
function files(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk('');
  return out;
}

/** A file's text, or undefined for a binary file (a NUL in its head). */
function textOf(abs: string): string | undefined {
  const bytes = readFileSync(abs);
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  return bytes.toString('utf8');
}

if (mode === 'index') {
  const db = new Database(dbPath, { create: true });
  db.run('CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, body)');
  db.run('CREATE TABLE meta (id INTEGER PRIMARY KEY, path TEXT, size REAL, mtime REAL)');
  const addDoc = db.prepare('INSERT INTO docs (rowid, path, body) VALUES (?, ?, ?)');
  const addMeta = db.prepare('INSERT INTO meta (id, path, size, mtime) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    let id = 0;
    for (const p of files(dir)) {
      const abs = join(dir, p);
      const st = statSync(abs);
      const text = textOf(abs);
      id++;
      addMeta.run(id, p, st.size, st.mtimeMs);
      if (text !== undefined) addDoc.run(id, p, text);
    }
  })();
  db.close();
} else if (mode === 'search') {
  const db = new Database(dbPath);
  // Every indexed file stat'ed; one changed in place is indexed again.
  const rows = db.query('SELECT id, path, size, mtime FROM meta').all() as { id: number; path: string; size: number; mtime: number }[];
  const changed: { id: number; path: string; size: number; mtime: number }[] = [];
  for (const r of rows) {
    const st = statSync(join(dir, r.path), { throwIfNoEntry: false });
    if (st === undefined || st.size !== r.size || st.mtimeMs !== r.mtime) changed.push({ ...r, size: st?.size ?? -1, mtime: st?.mtimeMs ?? -1 });
  }
  if (changed.length > 0) {
    db.transaction(() => {
      for (const c of changed) {
        db.run('DELETE FROM docs WHERE rowid = ?', [c.id]);
        db.run('UPDATE meta SET size = ?, mtime = ? WHERE id = ?', [c.size, c.mtime, c.id]);
        const text = c.size < 0 ? undefined : textOf(join(dir, c.path));
        if (text !== undefined) db.run('INSERT INTO docs (rowid, path, body) VALUES (?, ?, ?)', [c.id, c.path, text]);
      }
    })();
  }
  const match = words
    .join(' ')
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(' OR ');
  const found = db.query("SELECT path, snippet(docs, 1, '', '', '…', 16) AS snippet FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10").all(match) as { path: string; snippet: string }[];
  let out = '';
  found.forEach((f, i) => {
    out += `${i + 1}. ${f.path}\n   > ${f.snippet.replace(/\s+/g, ' ')}\n\n`;
  });
  process.stdout.write(out === '' ? 'No match.\n' : out);
  db.close();
} else {
  process.stderr.write('usage: search-reference index DB DIR | search DB DIR QUERY...\n');
  process.exit(2);
}
