// Tries: os.loadavg() (changes from run to run), fed into the step count.
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
import { loadavg } from 'node:os';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('os-loadavg', () => observe('loadavg', loadavg().join(',')));
