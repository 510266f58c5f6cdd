/**
 * A real run's bounds (realRun.ts): a wall-clock limit for the whole run, and an interruption
 * (Ctrl-C, a CI cancel) that no worker and no folder outlives.
 */
import { rmSync } from 'node:fs';

export interface RunEnd {
  /** Kills every worker process of the run. */
  killAll: () => void;
  /** The run is cut short: its outcome is the wall-time bound exceeded, with this detail. */
  cutShort: (detail: string) => void;
  /** Ends the run (the workers are killed already). */
  finish: () => void;
}

/** The runs armed in this process, and the one listener per signal they share. */
const armed = new Map<() => void, { root: string; end: RunEnd }>();

/**
 * At SIGINT or SIGTERM, for every run armed: its workers are killed. When someone else listens too (check keeps its
 * work at a first signal), each run ends here, cut short; else every run's folder is removed and the signal goes on to
 * the process as it came. One listener per signal however many runs are armed: a check's four restarts run at once,
 * and confirm or checkJournal called side by side arm more — one listener each read as a leak (Node's
 * MaxListenersExceededWarning past ten, on the user's terminal).
 */
function interrupted(signal: NodeJS.Signals): void {
  const runs = [...armed.values()];
  armed.clear();
  listen(false);
  for (const { end } of runs) end.killAll();
  if (process.listenerCount(signal) > 0) {
    for (const { end } of runs) {
      end.cutShort(`the real run was interrupted (${signal})`);
      end.finish();
    }
    return;
  }
  for (const { root } of runs) rmSync(root, { recursive: true, force: true });
  process.kill(process.pid, signal);
}

function listen(on: boolean): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.off(signal, interrupted);
    if (on) process.on(signal, interrupted);
  }
}

/** How many listeners the armed runs hold on each signal: one while any is armed (for tests). */
export const armedListeners = (): number => process.listeners('SIGINT').filter((l) => l === interrupted).length;

/**
 * Arms the bounds of the run working in `root`; returns what disarms them. Over `wallLimitMs`,
 * the run is cut short. At SIGINT or SIGTERM, as `interrupted` above says.
 */
export function boundRun(root: string, wallLimitMs: number, end: RunEnd): () => void {
  const limit = setTimeout(() => {
    end.cutShort(`the real run took over ${wallLimitMs} ms`);
    end.killAll();
    end.finish();
  }, wallLimitMs);
  const disarm = (): void => {
    if (armed.delete(disarm) && armed.size === 0) listen(false);
    clearTimeout(limit);
  };
  if (armed.size === 0) listen(true);
  armed.set(disarm, { root, end });
  return disarm;
}
