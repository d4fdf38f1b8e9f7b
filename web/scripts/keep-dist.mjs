// vite empties dist/ on every build; the Go embed needs the tracked placeholder back.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../dist/.gitkeep', import.meta.url), '');
