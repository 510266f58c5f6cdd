// Tries: a setInterval that keeps writing the incarnation's pid into a file of its slot; the next incarnation
//   of the slot reads the file twice across a sleep: if it still changes under another pid, the dead
//   incarnation's timer lives on.
// Expected: harmless — a timer dies with its process (docs/adapters.md).
// Oracle: the file rewritten by another pid after this incarnation began.
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('zombie-interval', async (env) => {
  const file = `attack-zombie-${env.pid}.txt`;
  const read = () => readFile(file, 'utf8').catch(() => '');
  const first = await read();
  await sleep(500);
  const second = await read();
  if (second !== first && !second.startsWith(`pid ${process.pid} `)) leak('a dead incarnation\'s timer still writes', second);
  let n = 0;
  const timer = setInterval(() => { writeFile(file, `pid ${process.pid} tick ${n++}`).catch(() => {}); }, 100);
  timer.unref?.();
});
