import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface OwnServer {
  base: string;
  data: string;
  /** The label code (what the QR code says) of each device registered before the start, by SN. */
  labels: Record<string, string>;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * A `fieldwatch serve --demo` of the test file's own, for flows that need more accounts
 * (`fieldwatch user add` writes to the data directory before the server starts) or other flags.
 */
export async function startOwnServer({
  name,
  users = [],
  devices = [],
  args = [],
  logLevel = 'error',
}: {
  name: string;
  logLevel?: string;
  users?: { accountNumber: string; password: string; name: string }[];
  /** Devices `fieldwatch device add` registers before the start; without an owner they wait to be bound. */
  devices?: { sn: string; type: number; owner?: string }[];
  args?: string[];
}): Promise<OwnServer> {
  const bin = process.env.FIELDWATCH_BIN ?? path.resolve(__dirname, '../../bin/fieldwatch');
  const data = mkdtempSync(path.join(tmpdir(), `fieldwatch-e2e-${name}-`));
  for (const user of users) {
    await promisify(execFile)(bin, ['user', 'add', '--data', data, '--account', user.accountNumber, '--name', user.name, '--password', user.password]);
  }
  const labels: Record<string, string> = {};
  for (const device of devices) {
    const owner = device.owner ? ['--owner', device.owner] : [];
    const { stdout } = await promisify(execFile)(bin, ['device', 'add', '--data', data, '--sn', device.sn, '--type', String(device.type), ...owner]);
    const label = /^label: +(\S+)$/m.exec(stdout);
    if (!label) throw new Error(`device add printed no label: ${stdout}`);
    labels[device.sn] = label[1];
  }
  const [port, mqttPort] = [await freePort(), await freePort()];
  const child = spawn(
    bin,
    ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--mqtt', `127.0.0.1:${mqttPort}`, '--demo-days', '1', '--data', data, '--log-level', logLevel, ...args],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fieldwatch exited during start-up (exit code ${child.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    data,
    labels,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}
