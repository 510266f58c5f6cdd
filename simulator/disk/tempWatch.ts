/**
 * The task's temp folder (task.temp), watched. The model: the folder is shared; the files in it
 * before the run are other tasks' temp files, and nothing of this task's may remove, move, replace
 * or open one of them for writing. Every step that does is noted (when, by whom, how — never
 * judged here); at the end, the files this task's workers left in the folder are listed.
 * cleanup-owned-only judges the first, convergence the second.
 */
import type { TempEvidence } from '../../model/evidence.js';

export type { TempEvidence } from '../../model/evidence.js';
/** A step that changed another task's temp file: when, by whom (worker-<pid>#<incarnation>), what it did, to which file. */
export type TempTouch = TempEvidence['touches'][number];

export class TempWatch {
  readonly touches: TempTouch[] = [];
  private readonly foreign: ReadonlySet<string>;

  constructor(readonly dir: string, initialFiles: readonly string[], private readonly who: () => { seq: number; by: string }) {
    this.foreign = new Set(initialFiles.filter((path) => path.startsWith(`${dir}/`)));
  }

  /** A step did `op` to `name` (relative to the work folder): noted when it is another task's file. */
  touched(op: string, name: string): void {
    if (this.foreign.has(name)) this.touches.push({ ...this.who(), op, name });
  }

  /** The evidence, given every file processes see at the end (relative to the work folder). */
  evidence(liveFiles: readonly string[]): TempEvidence {
    const leftovers = liveFiles.filter((path) => path.startsWith(`${this.dir}/`) && !this.foreign.has(path)).sort();
    return { dir: this.dir, foreign: [...this.foreign].sort(), touches: this.touches, leftovers };
  }
}

