import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The problems `npm ls` finds in the installed tree: unmet or invalid (peer) dependencies. */
function installProblems(): string[] {
  let out: string;
  try {
    out = execFileSync('npm', ['ls', '--all', '--json'], { cwd: web, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    out = String((error as { stdout?: string }).stdout ?? '');
  }
  return (JSON.parse(out) as { problems?: string[] }).problems ?? [];
}

// antd-mobile 5.43 pins @react-spring/web ~9.6 and staged-components, whose peer ranges stop at
// React 18: package.json overrides them (react-spring 10 declares React 19), so `npm ci` installs
// without a peer warning and every package's declared React range holds.
// Lighthouse's @paulirish/trace_engine asks for two packages by the tag "latest", which `npm ls`
// cannot check: the overrides pin the versions it was published with.
describe('installed packages', () => {
  it('satisfy every declared dependency and peer dependency', () => {
    expect(installProblems()).toEqual([]);
  });
});
