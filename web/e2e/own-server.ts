import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
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
  /** The embedded MQTT broker, host:port. */
  mqttAddr: string;
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
    mqttAddr: `127.0.0.1:${mqttPort}`,
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

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Builds tools/smtpsink and starts it on a random port, writing each mail it receives to a
 * temporary directory (see tools/smtpsink/main.go): NNNN.eml and its NNNN.json summary.
 */
export async function startMailSink() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fieldwatch-e2e-mail-'));
  const bin = path.join(mkdtempSync(path.join(tmpdir(), 'fieldwatch-e2e-sink-')), 'smtpsink');
  await promisify(execFile)(process.env.GO ?? 'go', ['build', '-o', bin, './tools/smtpsink'], { cwd: path.resolve(__dirname, '../..') });
  const port = await freePort();
  const child = spawn(bin, ['--addr', `127.0.0.1:${port}`, '--dir', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  while (!(await listening(port))) {
    if (exited) throw new Error(`smtpsink exited during start-up (exit code ${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    dir,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
      rmSync(path.dirname(bin), { recursive: true, force: true });
    },
  };
}
