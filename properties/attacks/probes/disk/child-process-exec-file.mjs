// Tries: child_process.execFile('touch', …) with a callback.
// Expected: refused — child processes are refused by name (README "The sandbox").
// API: execFile
import { execFile } from 'node:child_process';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('child-process-exec-file', () => new Promise((done) => execFile('touch', [canary('exec-file')], done)));
