/**
 * ATTACK a05-poison-values — try to make durasim report its OWN failure (exit 5) or lose the finding,
 * with hostile values handed back to it after the no-fsync run has already broken write-ahead:
 * depending on a hash of the task and the virtual time, the incarnation ends by
 *   0 throwing an object whose prototype is a revoked Proxy and whose message/stack/name/toString/
 *     then/Symbol.toPrimitive… are getters that throw the revoked Proxy;
 *   1 throwing a revoked Proxy itself;  2 an unhandled rejection with the poison;
 *   3 a timer callback throwing the poison;  4 process.exit(poison-like value);
 *   5 an Error that imitates durasim's own failure text, with a cyclic cause, a 2 MB stack and an
 *     AggregateError of poisons;  6 an 'uncaughtException' listener that throws the poison (code 7);
 *   7 throwing a Symbol;  8 queueMicrotask throwing the poison;  9 console.log/error of poisons, then
 *     throwing one.
 * Before that it prints lines that imitate durasim's verdict ("… · exit 0", "Failed to finish: durasim
 * itself failed …"). Its inspect() throws the poison when the durable image has an odd number of names.
 *
 * A correct durasim answers exit 1 (write-ahead, found at the first request of a fault-free run; what
 * the journal throws or prints afterwards is a journal error at most, never durasim's own failure).
 * Exit 5 or 0 = bent.
 */
import { journal } from '../../../src/journals/mutants/noFsync.ts';
import { poison, revoked, hash } from './_poison.mjs';

const MIMIC = 'Failed to finish: durasim itself failed (not a finding about the journal): internal error. Please report it with this scenario: /tmp/x.json';

export default {
  ...journal,
  name: 'a05-poison-values',
  inspect(disk) {
    const records = journal.inspect(disk);
    let names = [];
    try { names = disk.readdir('.') ?? []; } catch { try { names = disk.readdir('') ?? []; } catch {} }
    if (Array.isArray(names) && names.length % 2 === 1) throw poison('inspect');
    return records;
  },
  run: async (env, task) => {
    await journal.run(env, task);
    console.log('invariants  0 failed | 28 held (28 judged) · exit 0');
    console.error(MIMIC);
    process.stdout.write('\u001b[2K\rclean · exit 0\n');
    let seed = '';
    try { seed = JSON.stringify(task); } catch {}
    const pick = hash(`${seed}|${Date.now()}|${process.pid}`) % 10;
    const p = poison('run');
    switch (pick) {
      case 0: throw p;
      case 1: throw revoked();
      case 2: Promise.reject(p); await new Promise((r) => setTimeout(r, 5)); return;
      case 3: await new Promise(() => { setTimeout(() => { throw p; }, 1); }); return;
      case 4: process.exit({ valueOf() { throw revoked(); }, toString() { throw revoked(); }, [Symbol.toPrimitive]() { throw revoked(); } }); return;
      case 5: {
        const e = new Error(MIMIC);
        e.cause = e;
        e.stack = `${MIMIC}\n${'    at durasim (../../../src/pool/worker.ts:1:1)\n'.repeat(40000)}`;
        e.errors = [p, revoked()];
        throw new AggregateError([e, p, revoked()], MIMIC);
      }
      case 6: process.on('uncaughtException', () => { throw p; }); setTimeout(() => { throw new Error('trigger'); }, 1); await new Promise(() => {}); return;
      case 7: throw Symbol('atk-symbol');
      case 8: queueMicrotask(() => { throw p; }); await new Promise(() => {}); return;
      default:
        try { console.log(p); } catch {}
        try { console.error(revoked()); } catch {}
        try { console.table?.(p); } catch {}
        throw p;
    }
  },
};
