// Tries: process.kill of durasim's real pid with SIGSTOP (durasim frozen until the runner's watchdog).
// Expected: refused — signals to real processes; nothing serves them (README "The sandbox").
// API: kill
import { probe, env } from '../../lib/probe.mjs';

export default probe('kill-host-sigstop', () => process.kill(Number(env('ATTACK_REAL_PID')), 'SIGSTOP'));
