/**
 * The old way, as seed 000's lab did it: real worker processes (child_process, SIGKILL at the crash
 * point), a node:http fake service on 127.0.0.1 with the same semantics (the same ServiceCore),
 * real files in a temporary directory. Each scenario kills the worker right after the service
 * commits its k-th POST, withholding the response, then restarts it until it finishes; the effects
 * are checked (one per key) so the baseline does the same work, not less.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task } from '../../model/contract/contract.js';
import { VirtualClock } from '../../simulator/world/clock.js';
import { DEFAULT_SERVICE } from '../../simulator/scenario/scenario.js';
import { ServiceCore } from '../../simulator/service/service.js';
import { serveOverHttp } from '../realService.js';
import { STANDARD_FILES, STANDARD_OPERATIONS, STANDARD_RESOURCES } from '../arbitraries.js';

const WORKER = fileURLToPath(new URL('./realWorker.ts', import.meta.url));

export interface RealRun {
  ms: number;
  incarnations: number;
  effects: number;
  effectsPerKeyOk: boolean;
}

/** One real scenario: the worker is killed after the commit of POST number `killAfterPost` (1-based). */
export async function realScenario(killAfterPost: number): Promise<RealRun> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'durasim-real-'));
  const core = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: { ...STANDARD_RESOURCES } }, [], new VirtualClock());
  let child: ChildProcess | undefined;
  let posts = 0;
  // The worker is killed once the service has committed the chosen POST; its response is withheld.
  const service = await serveOverHttp(core, (method) => {
    if (method !== 'POST' || ++posts !== killAfterPost) return 'respond';
    child?.kill('SIGKILL');
    return 'withhold';
  });
  try {
    for (const [path, text] of Object.entries(STANDARD_FILES)) writeFileSync(join(dir, path), text);
    const task: Task = { id: 'real', operations: [...STANDARD_OPERATIONS], service: { url: service.url, query: true, idempotentReplay: true } };
    const taskFile = join(dir, 'task.json');
    writeFileSync(taskFile, JSON.stringify(task));
    let incarnation = 0;
    for (;; incarnation++) {
      if (incarnation > 5) throw new Error('the real worker did not finish in 6 incarnations');
      child = spawn(process.execPath, ['--import', 'tsx', WORKER, dir, taskFile, '0', String(incarnation)], { stdio: ['ignore', 'ignore', 'pipe'] });
      const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => child?.on('exit', (code, signal) => resolve({ code, signal })));
      if (exit.code === 0) break;
      if (exit.signal !== 'SIGKILL') throw new Error(`the real worker exited with ${exit.code ?? exit.signal}`);
    }
    const perKey = new Map<string, number>();
    for (const effect of core.effects) perKey.set(effect.key, (perKey.get(effect.key) ?? 0) + 1);
    return { ms: performance.now() - started, incarnations: incarnation + 1, effects: core.effects.length, effectsPerKeyOk: [...perKey.values()].every((n) => n === 1) };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
