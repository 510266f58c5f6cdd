/**
 * The real run's counterpart of the simulator's temp watch: at the end, other tasks' temp files
 * (those in task.temp.dir before the run) are looked at — one gone or changed was touched — and
 * the files this task left in the folder are listed. A file removed and put back meanwhile is not
 * seen here; the simulated run sees every step.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TempEvidence } from '../../model/evidence.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';

export function tempEvidenceIn(dir: string, scenario: Scenario, seq: number): TempEvidence | undefined {
  const temp = scenario.task.temp;
  if (temp === undefined) return undefined;
  const foreign = Object.keys(scenario.files).filter((path) => path.startsWith(`${temp.dir}/`)).sort();
  const touches: TempEvidence['touches'] = [];
  for (const name of foreign) {
    const path = join(dir, name);
    if (!existsSync(path)) touches.push({ seq, by: 'a worker', op: 'removed or moved it (found gone at the end)', name });
    else if (readFileSync(path, 'utf8') !== scenario.files[name]) touches.push({ seq, by: 'a worker', op: 'rewrote it (found changed at the end)', name });
  }
  const leftovers: string[] = [];
  const walk = (folder: string): void => {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else leftovers.push(relative(dir, path));
    }
  };
  walk(join(dir, temp.dir));
  return { dir: temp.dir, foreign, touches, leftovers: leftovers.filter((path) => !foreign.includes(path)).sort() };
}
