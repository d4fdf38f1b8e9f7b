import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { COMPRESSIBLE, ENCODINGS, compressible } from '../scripts/compress-dist.mjs';
import { baseURL } from './browser';

const dist = path.resolve(__dirname, '../dist');

function distFiles(): string[] {
  return readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dist, path.join(e.parentPath, e.name)));
}

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A GET with exactly the headers given (fetch would add Accept-Encoding and decode). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

// The build (npm run build, which make build runs) leaves next to every compressible file a
// brotli and a gzip copy, unless the encoding would not make it smaller.
describe('the web build', () => {
  test('has a .br and a .gz of every compressible file, each decoding to it', async () => {
    const files = distFiles();
    const text = files.filter(compressible);
    expect(text.length).toBeGreaterThan(10);
    expect(text).toContain('index.html');
    const missing: string[] = [];
    for (const name of text) {
      const data = readFileSync(path.join(dist, name));
      for (const [suffix, encode] of Object.entries(ENCODINGS)) {
        const copy = path.join(dist, name + suffix);
        if (!existsSync(copy)) {
          // Only acceptable when the encoding does not make the file smaller.
          if ((await encode(data)).length < data.length) missing.push(name + suffix);
          continue;
        }
        const decoded = suffix === '.br' ? brotliDecompressSync(readFileSync(copy)) : gunzipSync(readFileSync(copy));
        expect(decoded.equals(data), name + suffix).toBe(true);
      }
    }
    expect(missing).toEqual([]);
    // Nothing but the compressible types has copies.
    const copies = files.filter((f) => f.endsWith('.br') || f.endsWith('.gz'));
    expect(copies.filter((f) => !COMPRESSIBLE.some((ext) => f.slice(0, -3).endsWith(ext)))).toEqual([]);
  });

  test('names every file of assets/ after its content, as the immutable cache needs', () => {
    const assets = distFiles().filter((f) => f.startsWith('assets' + path.sep));
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((f) => !/-[\w-]{8}\.\w+(\.br|\.gz)?$/.test(f))).toEqual([]);
  });
});

describe('the server', () => {
  test('sends the login page and its assets precompressed, by Accept-Encoding, with their cache rules', async () => {
    const page = await get(baseURL() + '/login', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['vary']).toBe('Accept-Encoding');
    expect(page.headers['etag']).toBeTruthy();
    const html = brotliDecompressSync(page.body).toString();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      const identity = await get(baseURL() + asset);
      expect(identity.headers['content-encoding'], asset).toBeUndefined();
      expect(identity.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      expect(Number(identity.headers['content-length']), asset).toBe(identity.body.length);
      for (const [accept, encoding, decode] of [
        ['br, gzip', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
      ] as const) {
        const res = await get(baseURL() + asset, { 'Accept-Encoding': accept });
        expect(res.headers['content-encoding'], asset).toBe(encoding);
        expect(res.headers['vary'], asset).toBe('Accept-Encoding');
        expect(res.headers['etag'], asset).not.toBe(identity.headers['etag']);
        expect(Number(res.headers['content-length']), asset).toBe(res.body.length);
        expect(res.body.length, asset).toBeLessThan(identity.body.length);
        expect(decode(res.body).equals(identity.body), asset).toBe(true);
      }
    }
  });
});
