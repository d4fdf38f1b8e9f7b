// Precompresses the built app: next to every compressible file of dist/ a
// brotli (.br, quality 11) and a gzip (.gz, level 9) copy, each kept only when
// smaller than the file. The server picks one by Accept-Encoding
// (internal/httpapi/app.go), so nothing is compressed per request.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Extensions of the files worth compressing: text. Images, fonts and archives are compressed already. */
export const COMPRESSIBLE = ['.js', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt'];

/** The encodings written, by file suffix. */
export const ENCODINGS = {
  '.br': (data) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  '.gz': (data) => gz(data, { level: constants.Z_BEST_COMPRESSION }),
};

export function compressible(name) {
  return COMPRESSIBLE.some((ext) => name.endsWith(ext));
}

async function files(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}

/**
 * Writes the .br and .gz copies of every compressible file under dir, removing
 * stale ones first, and returns what it did: per file, its size and that of
 * each copy kept.
 */
export async function compressDir(dir) {
  const all = await files(dir);
  const stale = (f) => Object.keys(ENCODINGS).some((s) => f.endsWith(s) && compressible(f.slice(0, -s.length)));
  await Promise.all(all.filter(stale).map((f) => rm(f)));
  const report = [];
  await Promise.all(
    all.filter(compressible).map(async (file) => {
      const data = await readFile(file);
      const row = { file, size: data.length };
      for (const [suffix, encode] of Object.entries(ENCODINGS)) {
        const packed = await encode(data);
        if (packed.length < data.length) {
          await writeFile(file + suffix, packed);
          row[suffix] = packed.length;
        }
      }
      report.push(row);
    }),
  );
  return report.sort((a, b) => a.file.localeCompare(b.file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = fileURLToPath(new URL('../dist', import.meta.url));
  const report = await compressDir(dist);
  const sum = (key) => report.reduce((n, r) => n + (r[key] ?? r.size), 0);
  console.log(
    `precompressed ${report.length} files: ${sum('size')} bytes, brotli ${sum('.br')}, gzip ${sum('.gz')}`,
  );
}
