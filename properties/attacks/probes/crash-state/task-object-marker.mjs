// Tries: a marker property on the task object run() is handed, looked for by the next incarnation.
// Expected: harmless — a restarted process is handed the task afresh.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('task-object-marker', (env, task) => {
  if (task.attackMarker !== undefined) leak('task.attackMarker survived', task.attackMarker);
  task.attackMarker = `pid ${process.pid}`;
});
