/**
 * A confirmation's real worker process that ended on its own before it said hello: its boot
 * (realWorkerBoot.mjs: durasim's module graph, then the worker) failed, before any journal code
 * ran, so it is durasim's own failure (exit 5), never the journal's — it once read as a worker
 * that failed at every incarnation, judged as the run's outcome. Its entry file missing, or the
 * first error line it printed (Node prints its stack, then its version, last), and the fix.
 */
import { existsSync } from 'node:fs';
import { OwnFailure, REINSTALL } from '../ownFailure.js';

const ACTION = "start confirm's real worker process";

/** The line that says what failed: the first that names an error, else the last that is not Node's version. */
function errorLine(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.find((line) => /^([A-Za-z]*Error|strace)\b.*:/.test(line)) ?? lines.filter((line) => !/^Node\.js v\d/.test(line)).at(-1);
}

export function realWorkerBootFailure(boot: string, exitCode: number | null, stderr: string): OwnFailure {
  if (!existsSync(boot)) return new OwnFailure(ACTION, `its entry file ${boot} is missing: durasim's package is incomplete`, REINSTALL);
  const said = errorLine(stderr);
  return new OwnFailure(ACTION, `its boot (${boot}) ended with exit code ${exitCode ?? 'unknown'} before the worker started${said === undefined ? '' : `: ${said.replace(/\.+$/, '')}`}`, REINSTALL);
}
