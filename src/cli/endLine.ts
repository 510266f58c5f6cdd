/**
 * check's last line, read like a test runner's: how many of the judged invariants failed and how many
 * held over the runs made, and the exit code with what it means — `invariants  1 failed | 27 held
 * (28 judged) · exit 1 (safety)`.
 */
import { INVARIANT_CODES } from '../../model/violation.js';
import type { RunReport } from '../report/runReport.js';
import { EXIT } from './exitCodes.js';


export function endLine(report: Pick<RunReport, 'violations' | 'tally' | 'invariantsJudged' | 'exitCode' | 'sandbox'>): string {
  const judged = report.invariantsJudged?.length ?? INVARIANT_CODES.length;
  const failed = new Set([...report.violations.map((v) => v.code), ...Object.keys(report.tally ?? {}).filter((code) => code !== 'sandbox')]).size;
  const counts = `${failed > 0 ? `${failed} failed | ` : ''}${judged - failed} held (${judged} judged)`;
  return `invariants  ${counts}${report.sandbox ? ' · sandbox breached' : ''} · exit ${report.exitCode} (${Object.entries(EXIT).find(([, code]) => code === report.exitCode)?.[0] ?? 'unknown'})`;
}
