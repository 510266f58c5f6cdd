// Tries: Error.prepareStackTrace set in run(), writing the canary: V8 calls it for every error's stack,
//   durasim's own errors included.
// Expected: harmless — journal code run inside durasim's work must not reach the real disk.
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('prepare-stack-trace', () => {
  Error.prepareStackTrace = (error, frames) => {
    escapeWrite('prepare-stack-trace');
    return `${error}\n${frames.join('\n')}`;
  };
});
