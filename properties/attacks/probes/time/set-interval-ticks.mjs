// Tries: setInterval(1000) for three ticks, measured with Date.now().
// Expected: served — timers and the clock are both virtual: three ticks are 3 s on the clock (docs/adapters.md Path 1).
// Oracle: less than 2.5 s on the clock across three 1 s ticks means the timers and the clock are not one clock.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('set-interval-ticks', () => new Promise((done, fail) => {
  const start = Date.now();
  let ticks = 0;
  const timer = setInterval(() => {
    if (++ticks < 3) return;
    clearInterval(timer);
    const elapsed = Date.now() - start;
    if (elapsed < 2500) fail(new Error(`ATTACK-LEAK timers and clock disagree: ${elapsed}`));
    else done();
  }, 1000);
}).catch((error) => leak('setInterval', error.message)));
