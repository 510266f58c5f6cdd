/**
 * The real run's counterpart of the simulator's secret watch: at the end, every file left in the
 * worker's folder (and every name in it) is searched for the task's access token. Files a worker
 * wrote and deleted before the end are not seen here; the simulated run sees every write.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SecretSightingEvidence } from '../../model/evidence.js';

export function secretSightingsIn(dir: string, token: string, seq: number): SecretSightingEvidence[] {
  const sightings: SecretSightingEvidence[] = [];
  const needle = Buffer.from(token, 'utf8');
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const rel = relative(dir, path);
      if (name.includes(token)) sightings.push({ seq, by: 'a worker', where: 'disk', name: '(a file name)' });
      if (statSync(path).isDirectory()) walk(path);
      else if (readFileSync(path).includes(needle)) sightings.push({ seq, by: 'a worker', where: 'disk', name: rel });
    }
  };
  walk(dir);
  return sightings;
}
