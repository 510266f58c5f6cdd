// Tries: fetch of an object whose toString writes the canary (and names the service), run by durasim's served fetch.
// Expected: served — the hook is the journal's code: its write is served (ENOENT), never real.
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('fetch-input-to-string', (env, task) => fetch({
  toString() {
    escapeWrite('fetch-to-string');
    return `${task.service.url}/resources/attack`;
  },
}));
