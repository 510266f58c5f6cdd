// Tries: the real fetch's undici dispatcher, left on globalThis under Symbol.for('undici.globalDispatcher.1')
//   once anything in the thread used Node's real fetch, to request the real canary.
// Expected: harmless — if durasim never lets it be reached nothing happens; if reachable it must be refused.
// API: dispatcher|undici
import { probe, env } from '../../lib/probe.mjs';

export default probe('undici-global-dispatcher', async () => {
  const dispatcher = globalThis[Symbol.for('undici.globalDispatcher.1')];
  if (dispatcher) await dispatcher.request({ origin: `http://127.0.0.1:${env('ATTACK_PORT')}`, path: '/undici', method: 'GET' });
});
