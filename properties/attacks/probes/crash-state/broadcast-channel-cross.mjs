// Tries: a BroadcastChannel of one name opened by every incarnation, each posting its pid: a message from
//   another pid crossed processes (a second worker, or a dead incarnation's channel).
// Expected: harmless — a BroadcastChannel reaches the channels of its name in the same process only (docs/adapters.md).
// Oracle: a message from another pid.
import { probe } from '../../lib/probe.mjs';

export default probe('broadcast-channel-cross', () => {
  const channel = new BroadcastChannel('attack-marker');
  channel.onmessage = (event) => {
    if (event.data !== `pid ${process.pid}`) {
      console.log(`ATTACK-LEAK a BroadcastChannel message crossed processes: ${event.data}`);
      throw new Error(`ATTACK-LEAK a BroadcastChannel message crossed processes: ${event.data}`);
    }
  };
  channel.postMessage(`pid ${process.pid}`);
});
