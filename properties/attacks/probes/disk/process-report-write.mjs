// Tries: process.report.writeReport into the canary folder (a real diagnostic report file).
// Expected: refused — a real file outside node:fs must be refused (README "The sandbox").
// API: writeReport|report
import { probe, canary } from '../../lib/probe.mjs';

export default probe('process-report-write', () => process.report.writeReport(canary('report.json')));
