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

/**
 * Arms the bounds of the run working in `root`; returns what disarms them. Over `wallLimitMs`,
 * the run is cut short. At SIGINT or SIGTERM every worker is killed; when the caller listens too
 * (check, which keeps its work at a first signal), the run ends here, cut short; else the folder
 * is removed and the signal goes on to the process as it came.
 */
export function boundRun(root: string, wallLimitMs: number, end: RunEnd): () => void {
  const limit = setTimeout(() => {
    end.cutShort(`the real run took over ${wallLimitMs} ms`);
    end.killAll();
    end.finish();
  }, wallLimitMs);
  const interrupted = (signal: NodeJS.Signals): void => {
    end.killAll();
    if (process.listenerCount(signal) > 0) {
      end.cutShort(`the real run was interrupted (${signal})`);
      end.finish();
      return;
    }
    rmSync(root, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    clearTimeout(limit);
  };
}
