// Tries: an options object with a getter (encoding) handed to fs/promises writeFile; the getter writes the
//   canary while durasim's served code reads the options.
// Expected: served — the getter is the journal's code: its write is served (ENOENT), never real.
import { writeFile } from 'node:fs/promises';
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('options-getter', () => writeFile('attack-getter.txt', 'x', {
  get encoding() {
    escapeWrite('options-getter');
    return 'utf8';
  },
}));
