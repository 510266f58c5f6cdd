// Tries: process.kill of durasim's real pid with SIGINT (what Ctrl-C sends: check would stop and exit 130).
// Expected: refused — signals to real processes; nothing serves them (README "The sandbox").
// API: kill
import { probe, env } from '../../lib/probe.mjs';

export default probe('kill-host-sigint', () => process.kill(Number(env('ATTACK_REAL_PID')), 'SIGINT'));
