// Tries: child_process.execSync running `touch` on a real path in the canary folder.
// Expected: refused — child processes are refused by name (README "The sandbox").
// API: execSync|child_process
import { execSync } from 'node:child_process';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('child-process-execsync', () => execSync(`touch ${canary('exec')}`));
