// Lighthouse against `fieldwatch serve --demo` on a random port, driving the installed Chromium:
// the login page, the device list (logged in) and one detail page of each device kind, with the
// mobile and the desktop preset. Prints a Markdown table for docs/performance.md.
//
//   node scripts/lighthouse.mjs [--only <substring of a page or preset>]...
//
// FIELDWATCH_BIN (default ../bin/fieldwatch, from `make build`) and CHROMIUM_PATH (default
// /usr/bin/chromium, as the browser flows) choose the binaries. Lighthouse's own throttling is
// simulated, so the numbers do not depend on this machine's network, but they do on its CPU.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.env.FIELDWATCH_BIN ?? path.resolve(here, '../../bin/fieldwatch');
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const only = process.argv.flatMap((arg, i, all) => (all[i - 1] === '--only' ? [arg] : []));
const DEMO = { accountNumber: 'demo01', password: 'demo123456' };

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startServer() {
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: run "make build" first`);
  const data = mkdtempSync(path.join(tmpdir(), 'fieldwatch-lighthouse-'));
  const port = await freePort();
  const mqtt = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--mqtt', `127.0.0.1:${mqtt}`, '--data', data, '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`fieldwatch exited during start-up (exit code ${child.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}

async function sessionCookie(base) {
  const res = await fetch(`${base}/apis/account/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify(DEMO),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('fw_session='));
  if (!cookie) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return cookie.split(';')[0];
}

/** One device of each detail-page kind, as the list links them. */
async function detailPages(base, cookie) {
  const res = await fetch(`${base}/apis/devices?size=100&sort=name`, { headers: { Cookie: cookie } });
  const { data } = await res.json();
  const byKind = new Map();
  for (const d of data.list) {
    if (d.slave || byKind.has(d.page)) continue;
    byKind.set(d.page, d.page === 'pluviometer' ? `/apps/poi/pluviometer/${d.hashId}` : `/apps/poi/${d.page}/${d.hashId}/${d.id}`);
  }
  return [...byKind.values()].sort();
}

const kB = (bytes) => `${Math.round(bytes / 1000).toLocaleString('en')} kB`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const cookie = await sessionCookie(server.base);
    const runs = [
      { page: '/login', preset: 'mobile' },
      { page: '/login', preset: 'desktop' },
      { page: '/apps/devices', preset: 'desktop', cookie },
      { page: '/apps/devices', preset: 'mobile', cookie },
    ];
    for (const page of await detailPages(server.base, cookie)) {
      runs.push({ page, preset: 'desktop', cookie }, { page, preset: 'mobile', cookie });
    }
    const chosen = runs.filter((r) => only.length === 0 || only.some((o) => `${r.page} ${r.preset}`.includes(o)));

    const rows = [];
    for (const run of chosen) {
      const flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        extraHeaders: run.cookie ? { Cookie: run.cookie } : undefined,
      };
      const result = await lighthouse(server.base + run.page, flags, run.preset === 'desktop' ? desktopConfig : undefined);
      const { categories, audits, finalDisplayedUrl } = result.lhr;
      const requests = audits['network-requests']?.details?.items?.length ?? 0;
      const row = [
        run.page.replace(/^(\/apps\/poi\/[^/]+)\/.*/, '$1/…'),
        run.preset,
        new URL(finalDisplayedUrl).pathname === run.page ? '' : new URL(finalDisplayedUrl).pathname,
        categories.performance.score?.toFixed(2) ?? '—',
        `${seconds(audits['first-contentful-paint'].numericValue)} / ${seconds(audits['largest-contentful-paint'].numericValue)}`,
        audits['cumulative-layout-shift'].numericValue.toFixed(3),
        `${kB(audits['total-byte-weight'].numericValue)} in ${requests}`,
        categories.accessibility.score?.toFixed(2) ?? '—',
      ];
      rows.push(row);
      console.error(row.join(' | '));
    }
    console.log('| page | preset | shown at | performance | FCP / LCP | CLS | bytes transferred | accessibility |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } finally {
    chrome.kill();
    await server.stop();
  }
}

await main();
