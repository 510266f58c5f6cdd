// Tries: process.report.getReport() (a diagnostic report: host, environment, folders, resources).
// Expected: refused — a report of the real process and machine; nothing serves it (README "The sandbox").
// API: getReport|report
// Oracle: the real host name (passed by the runner) in the report.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-report', () => {
  const report = JSON.stringify(process.report.getReport());
  if (report.includes(env('ATTACK_REAL_HOST'))) leak('process.report', env('ATTACK_REAL_HOST'));
});
