import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startMailSink } from './own-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** Where the SMTP sink writes each mail fieldwatch sends: NNNN.eml and its NNNN.json summary. */
    mailDir: string;
    /** The embedded MQTT broker, host:port, for mosquitto_pub in tests. */
    mqttAddr: string;
  }
}

// Starts `fieldwatch serve --demo` on a random port with a temporary data
// directory, sending mail to the SMTP sink, and stops both after the run.
export default async function setup(project: TestProject) {
  const bin = process.env.FIELDWATCH_BIN ?? path.resolve(__dirname, '../../bin/fieldwatch');
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: run "make build" first`);
  const sink = await startMailSink();
  const data = mkdtempSync(path.join(tmpdir(), 'fieldwatch-e2e-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    bin,
    [
      'serve', '--demo', '--addr', `127.0.0.1:${port}`, '--mqtt', `127.0.0.1:${mqttPort}`, '--demo-days', '2', '--data', data, '--log-level', 'warn',
      '--smtp-url', `smtp://127.0.0.1:${sink.port}`, '--mail-from', 'Fieldwatch <noreply@fieldwatch.test>',
      // Data-push flows deliver to a receiver the test runs on loopback, and
      // give up on a broken one after two quick retries.
      '--push-allow-private', '--push-retries', '5s,10s',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) {
      await sink.stop();
      throw new Error(`fieldwatch exited during start-up (exit code ${child.exitCode})`);
    }
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  project.provide('baseURL', base);
  project.provide('mailDir', sink.dir);
  project.provide('mqttAddr', `127.0.0.1:${mqttPort}`);
  return async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(data, { recursive: true, force: true });
    await sink.stop();
  };
}
