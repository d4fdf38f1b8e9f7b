import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

// Starts `fieldwatch serve --demo` on a random port with a temporary data
// directory, and stops it after the run.
export default async function setup(project: TestProject) {
  const bin = process.env.FIELDWATCH_BIN ?? path.resolve(__dirname, '../../bin/fieldwatch');
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: run "make build" first`);
  const data = mkdtempSync(path.join(tmpdir(), 'fieldwatch-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--mqtt', '127.0.0.1:0', '--demo-days', '2', '--data', data, '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`fieldwatch exited during start-up (exit code ${child.exitCode})`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide('baseURL', base);
  return async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(data, { recursive: true, force: true });
  };
}
