// Tries: process.kill of durasim's real pid (passed by the runner) with SIGKILL.
// Expected: refused — signals to real processes; nothing serves them (README "The sandbox").
// API: kill
import { probe, env } from '../../lib/probe.mjs';

export default probe('kill-host-sigkill', () => process.kill(Number(env('ATTACK_REAL_PID')), 'SIGKILL'));
