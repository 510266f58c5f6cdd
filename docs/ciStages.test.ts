/**
 * .ci/run's hang guards: every command that does the CI's work runs as a stage under `timeout`, and
 * a stage that hangs ends CI in its limit, naming the stage, its whole process group killed (the
 * last CI spent its whole 5400 s on a hung `npm test`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
const stageFunction = /^stage\(\) \{\n[\s\S]*?\n\}\n/m.exec(ci)?.[0] ?? '';

/** Runs `script` in bash after .ci/run's own stage function, as .ci/run runs (set -euo pipefail). */
function withStage(script: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', ['-c', `set -euo pipefail\n${stageFunction}${script}`], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('.ci/run', () => {
  test('every command that does the work (apt-get, npm, npx) is a stage with a limit in seconds', () => {
    expect(stageFunction).toContain('timeout -k 30 "$limit" "$@"');
    const work = ci
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => !line.startsWith('#') && /(^|\s)(apt-get|npm|npx)\s/.test(line));
    expect(work.length).toBeGreaterThan(10);
    for (const line of work) expect(line, line).toMatch(/^stage ("[^"]+"|'[^']+') \d+ /);
  });

  test('a stage that hangs ends CI after its limit, named, with exit 124, and nothing it started lives on', () => {
    const run = withStage(`stage 'quick' 60 true\nstage 'hanger' 1 bash -c 'sleep 300 & echo child $! >&2; sleep 300'\necho after`);
    expect(run.status).toBe(124);
    // Whole seconds of bash's clock: 0, or 1 when the stage straddled a second on a busy machine.
    expect(run.stdout).toMatch(/== CI stage 'quick': [01] s/);
    expect(run.stdout).not.toContain('after');
    expect(run.stderr).toContain("CI: stage 'hanger' hung: killed after 1 s");
    const child = Number(/^child (\d+)$/m.exec(run.stderr)?.[1]);
    expect(child).toBeGreaterThan(0);
    // Gone, or a zombie waiting for its reaper: either way it no longer runs. The signal is sent as
    // the stage ends; on a busy machine the child may take a moment to act on it, so it is given up
    // to 10 s (it would otherwise sleep on for 300 s).
    const stateOf = () => (existsSync(`/proc/${child}/stat`) ? readFileSync(`/proc/${child}/stat`, 'utf8').replace(/^.*\) /s, '')[0] : 'gone');
    let state = stateOf();
    for (let waited = 0; !['gone', 'Z', 'X'].includes(state ?? '') && waited < 100; waited++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      state = stateOf();
    }
    expect(['gone', 'Z', 'X']).toContain(state);
  });

  test('a stage that fails ends CI with its exit code, named', () => {
    const run = withStage(`stage 'failing' 60 bash -c 'exit 3'\necho after`);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("CI: stage 'failing' failed (exit 3)");
    expect(run.stdout).not.toContain('after');
  });
});
