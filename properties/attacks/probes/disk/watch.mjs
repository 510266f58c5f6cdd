// Tries: fs.watch on the work folder (a real inotify watch, events at real times).
// Expected: refused — watchers are not served, so caught as an escape (docs/adapters.md "Not served").
// API: watch
import { watch } from 'node:fs';
import { probe } from '../../lib/probe.mjs';

export default probe('watch', () => watch('.').close());
