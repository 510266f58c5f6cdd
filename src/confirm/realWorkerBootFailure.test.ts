/**
 * A confirmation's real worker whose boot fails (before any journal code runs) ends confirm with
 * exit 5, naming the boot file and the error it printed, and the fix — where it read as the
 * journal's worker failing at every incarnation, and confirm went on to judge that run.
 */
import { join, resolve } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { main } from '../cli/main.js';
import { REAL_WORKER_BOOT } from './realWorkerProcess.js';
import { realWorkerBootFailure } from './realWorkerBootFailure.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'properties/fixtures/confirm');
const REINSTALL = 'Reinstall durasim (npm install durasim; in a clone of its repository, npm install and git checkout the file); if it fails again, report it with the command line you ran.';

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.DURASIM_FAILPOINT;
});

test('a real worker whose boot throws ends confirm with exit 5, naming its boot file, what it threw, and the fix', async () => {
  const err: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true));
  process.env.DURASIM_FAILPOINT = 'real-worker-boot';
  const out: string[] = [];
  const code = await main(['confirm', join(FIXTURES, 'onePublish.scenario.json'), '--journal', join(FIXTURES, 'pidTempNames.ts')], (line) => out.push(line));
  expect(err.join(''), out.join('\n')).toBe(`Failed to start confirm's real worker process: its boot (${REAL_WORKER_BOOT}) ended with exit code 1 before the worker started: Error: the DURASIM_FAILPOINT test failpoint is set (real-worker-boot). ${REINSTALL}\n`);
  expect(code).toBe(5);
});

test('its entry file missing is said as such; else the first line that names an error, not the version Node prints last', () => {
  expect(realWorkerBootFailure('/gone/realWorkerBoot.mjs', 1, '').message).toBe(`Failed to start confirm's real worker process: its entry file /gone/realWorkerBoot.mjs is missing: durasim's package is incomplete. ${REINSTALL}`);
  const stderr = "node:internal/modules/esm/resolve:275\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/pkg/dist/graph.mjs' imported from /pkg/dist/src/bin/graph.mjs\n    at finalizeResolution (node:internal/modules/esm/resolve:275:11) {\n  code: 'ERR_MODULE_NOT_FOUND'\n}\n\nNode.js v20.18.0\n";
  expect(realWorkerBootFailure(REAL_WORKER_BOOT, 1, stderr).reason).toBe(`its boot (${REAL_WORKER_BOOT}) ended with exit code 1 before the worker started: Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/pkg/dist/graph.mjs' imported from /pkg/dist/src/bin/graph.mjs`);
  expect(realWorkerBootFailure(REAL_WORKER_BOOT, 0, '\nNode.js v20.18.0\n').reason).toBe(`its boot (${REAL_WORKER_BOOT}) ended with exit code 0 before the worker started`);
});
