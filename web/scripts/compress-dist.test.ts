import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { compressDir, compressible } from './compress-dist.mjs';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A directory laid out as vite leaves dist/. */
function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwatch-compress-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'assets'));
  const text = 'export const fieldwatch = "soil moisture";\n'.repeat(200);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Fieldwatch</title>'.repeat(20));
  writeFileSync(join(dir, 'assets', 'index-DhPsGBN5.js'), text);
  writeFileSync(join(dir, 'assets', 'index-CyPItI5o.css'), 'body{margin:0}\n'.repeat(100));
  writeFileSync(join(dir, 'assets', 'tiny-B1a2C3d4.js'), 'a'); // no encoding makes one byte smaller
  writeFileSync(join(dir, 'assets', 'logo-B1a2C3d4.png'), Buffer.alloc(4096, 7)); // compressible bytes, not a compressible type
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>'.repeat(10));
  writeFileSync(join(dir, 'site.webmanifest'), JSON.stringify({ name: 'Fieldwatch', icons: [] }).repeat(10));
  writeFileSync(join(dir, '.gitkeep'), '');
  return dir;
}

describe('compressDir', () => {
  it('writes a brotli and a gzip copy of each compressible file that decode to it', async () => {
    const dir = fixture();
    const report = await compressDir(dir);
    for (const name of ['index.html', 'assets/index-DhPsGBN5.js', 'assets/index-CyPItI5o.css', 'favicon.svg', 'site.webmanifest']) {
      const file = join(dir, name);
      const original = readFileSync(file);
      const br = readFileSync(file + '.br');
      const gz = readFileSync(file + '.gz');
      expect(brotliDecompressSync(br).equals(original), name).toBe(true);
      expect(gunzipSync(gz).equals(original), name).toBe(true);
      expect(br.length).toBeLessThan(original.length);
      expect(gz.length).toBeLessThan(original.length);
      expect(report.find((r) => r.file === file)).toEqual({ file, size: original.length, '.br': br.length, '.gz': gz.length });
    }
  });

  it('keeps a copy only when it is smaller, and leaves other types alone', async () => {
    const dir = fixture();
    await compressDir(dir);
    for (const name of ['assets/tiny-B1a2C3d4.js', 'assets/logo-B1a2C3d4.png', '.gitkeep']) {
      expect(existsSync(join(dir, name + '.br')), name).toBe(false);
      expect(existsSync(join(dir, name + '.gz')), name).toBe(false);
    }
  });

  it('replaces the copies of an earlier run and never compresses a copy', async () => {
    const dir = fixture();
    await compressDir(dir);
    const js = join(dir, 'assets', 'index-DhPsGBN5.js');
    writeFileSync(js, 'export const changed = true;\n'.repeat(100));
    writeFileSync(join(dir, 'assets', 'gone-Zz9Yy8Xx.js.br'), 'left over');
    await compressDir(dir);
    expect(brotliDecompressSync(readFileSync(js + '.br')).toString()).toBe('export const changed = true;\n'.repeat(100));
    expect(existsSync(js + '.br.gz')).toBe(false);
    expect(existsSync(js + '.gz.br')).toBe(false);
    expect(existsSync(join(dir, 'assets', 'gone-Zz9Yy8Xx.js.br'))).toBe(false);
  });
});

describe('compressible', () => {
  it('takes text types only', () => {
    for (const name of ['a.js', 'a.css', 'index.html', 'a.svg', 'a.json', 'site.webmanifest', 'robots.txt']) expect(compressible(name), name).toBe(true);
    for (const name of ['a.png', 'a.woff2', 'a.js.br', 'a.js.gz', 'a.zip', '.gitkeep']) expect(compressible(name), name).toBe(false);
  });
});
