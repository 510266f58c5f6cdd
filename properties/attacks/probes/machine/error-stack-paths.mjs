// Tries: new Error().stack (file paths of the code on the stack).
// Expected: served — nothing of the real machine's folders: a saved scenario replays the same trace anywhere.
// Oracle: the real checkout's path (passed by the runner) in the stack.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('error-stack-paths', () => {
  const stack = String(new Error('where').stack);
  if (stack.includes(env('ATTACK_REAL_REPO'))) leak('a real path in a stack trace', stack.split('\n')[1]);
});
