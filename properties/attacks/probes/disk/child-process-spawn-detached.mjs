// Tries: child_process.spawn of a detached shell that touches the canary file a second later.
// Expected: refused — child processes are refused by name (README "The sandbox").
// API: spawn
import { spawn } from 'node:child_process';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('child-process-spawn-detached', () => spawn('sh', ['-c', `sleep 1; touch ${canary('spawn')}`], { detached: true, stdio: 'ignore' }).unref());
