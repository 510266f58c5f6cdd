/**
 * Node's warnings are the thread's, not a simulated process's: Node gives each deprecation code once
 * a thread (util.deprecate's warned codes), a deprecated builtin warns on its first call only (a flag
 * in its closure), an experimental feature once — all kept inside Node's own modules, where no
 * restart undoes them. Had a journal heard them, the first incarnation would hear what the second
 * does not: memory across a crash (properties/attacks/pending/blind2/b01). So, under journal code
 * (a turn, a module's load, code no turn holds in a closed thread):
 * - process.emitWarning, which Node's own code calls for every such warning, drops it: none reaches
 *   the journal, its listeners, its output or an exception (process.throwDeprecation), in the first
 *   incarnation as in the tenth; the journal's own calls are dropped too (they were never shown);
 * - setting process.emitWarning is refused by name (Node's code would call what the journal set), and
 *   so is defining it (guardPinning.ts holdProperty); in a thread given to journals for good the
 *   property is not configurable, so no journal can delete it;
 * - process.emit('warning'), which Node's synchronous warnings use, is not heard (guardChannels.ts);
 *   a journal that replaces process.emit itself (signal-exit does) is handed them, a few Node's C++
 *   gives (none of its JavaScript modules does on Node 20, 22 or 24): a limit.
 * Outside journal code (durasim's own, a test runner's thread) process.emitWarning is Node's, or what
 * that code set. Returns restore callbacks.
 */
import { refuse } from './guardFunction.js';
import { holdProperty } from './guardPinning.js';
import { isJournalCode, turnHolder } from './turn.js';

type Restore = () => void;

export const EMIT_WARNING_API = 'process.emitWarning';

/** What journal code gets for process.emitWarning: a warning given to it goes nowhere. Frozen, as a builtin's function that holds nothing is (sharedBaseline.ts): no restore looks at it. */
const dropped = Object.freeze(function emitWarning(warning: unknown, type?: unknown, code?: unknown, ctor?: unknown): void {
  void warning;
  void type;
  void code;
  void ctor;
});

export function serveWarnings(permanent: boolean): Restore[] {
  const descriptor = Object.getOwnPropertyDescriptor(process, 'emitWarning');
  if (!descriptor?.configurable || !('value' in descriptor)) return [];
  let current = descriptor.value as unknown;
  Object.defineProperty(process, 'emitWarning', {
    configurable: !permanent,
    enumerable: descriptor.enumerable ?? true,
    get: () => (isJournalCode(turnHolder()) ? dropped : current),
    set: (value: unknown) => {
      const holder = turnHolder();
      if (holder !== null && isJournalCode(holder)) refuse(holder, EMIT_WARNING_API);
      current = value;
    },
  });
  const restores: Restore[] = [];
  const held = holdProperty(process, 'emitWarning', EMIT_WARNING_API);
  restores.push(held);
  if (!permanent) restores.push(() => Object.defineProperty(process, 'emitWarning', { ...descriptor, value: current }));
  return restores;
}
