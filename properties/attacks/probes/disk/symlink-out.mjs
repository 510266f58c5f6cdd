// Tries: a symbolic link in the work folder pointing at the canary folder, then a write through it.
// Expected: refused — symbolic links are not served, so caught as an escape (docs/adapters.md "Not served").
// API: symlink
import { symlinkSync, writeFileSync } from 'node:fs';
import { probe, env } from '../../lib/probe.mjs';

export default probe('symlink-out', () => {
  symlinkSync(env('ATTACK_DIR'), 'out');
  writeFileSync('out/symlink', 'x');
});
