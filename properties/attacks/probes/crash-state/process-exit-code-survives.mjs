// Tries: process.exitCode set to 77 while an incarnation works (put back before it ends normally), looked for
//   by the next incarnation after a crash.
// Expected: harmless — a new process has no exit code yet.
// Oracle: 77 at the start of run() came from an earlier incarnation.
import good from '../../lib/good.mjs';
import { leak } from '../../lib/probe.mjs';

export default {
  name: 'attack-process-exit-code-survives',
  async run(env, task) {
    if (process.exitCode === 77) leak('process.exitCode survived', 77);
    process.exitCode = 77;
    await good.run(env, task);
    process.exitCode = undefined;
  },
  inspect: (disk) => good.inspect(disk),
};
