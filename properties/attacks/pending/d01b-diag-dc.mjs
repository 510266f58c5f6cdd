// DIAGNOSTIC d01b (not an attack): does a diagnostics_channel subscription survive a restart within one
// scenario? The first incarnation picks the first channel name with no subscriber (so, unused by any
// earlier scenario in the thread), subscribes, and writes the name durably; a restarted incarnation checks it.
import { referenceJournal } from '../../../src/journals/reference.ts';
import { open, readFile } from 'node:fs/promises';
import dc from 'node:diagnostics_channel';
async function writeDurably(path, text) {
  const h = await open(path, 'w'); try { await h.writeFile(text); await h.sync(); } finally { await h.close(); }
  const d = await open('.', 'r'); try { await d.sync(); } finally { await d.close(); }
}
export default {
  ...referenceJournal,
  name: 'd01b-diag-dc',
  async run(env, task) {
    const file = `atk-dc-${env.pid}`;
    const name = await readFile(file, 'utf8').catch(() => undefined);
    if (name === undefined) {
      let i = 0; while (dc.hasSubscribers(`atk-dc-${env.pid}-${i}`)) i++;
      dc.channel(`atk-dc-${env.pid}-${i}`).subscribe(() => {});
      await writeDurably(file, `atk-dc-${env.pid}-${i}`);
      console.log(`atk-diag dc first: subscribed ${env.pid}-${i}`);
    } else console.log(`atk-diag dc restarted: ${name} hasSubscribers=${dc.hasSubscribers(name)}`);
    return referenceJournal.run(env, task);
  },
};
