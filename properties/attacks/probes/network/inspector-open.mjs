// Tries: inspector.open on port 0 (a real debugger port listening on 127.0.0.1), then closes it.
// Expected: refused — inspector is guarded whole and not served (docs/adapters.md "What the sandbox does").
// API: inspector|open
import inspector from 'node:inspector';
import { probe } from '../../lib/probe.mjs';

export default probe('inspector-open', () => {
  inspector.open(0, '127.0.0.1');
  inspector.close();
});
