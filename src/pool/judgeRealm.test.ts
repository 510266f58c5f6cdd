/**
 * A journal cannot bend its verdict by patching the builtins durasim's own code runs on: the judge
 * runs in the main thread, where no journal code runs, on the evidence the worker sent as plain
 * data (runEvidence.ts); in the worker the builtins are locked or watched before any journal code
 * loads (simulator/sandbox/lockIntrinsics.ts). Each patch below sits in the no-fsync mutant, whose
 * scenario fails write-ahead: its verdict stays a safety finding, or the patch is reported as an
 * escape. Before, the flatMap patch turned that verdict into "28 held" (exit 0).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { outcomeVerdict } from '../runner/runVerdict.js';
import type { Escape } from '../../simulator/sandbox/ambientGuard.js';
import { WorkerPool } from './workerPool.js';

/** Whether durasim's judge is on the stack: a blinding patch acts there alone, so the journal itself runs as before. */
const JUDGING = `const judging = () => { const limit = Error.stackTraceLimit; Error.stackTraceLimit = 60; const stack = String(new Error().stack); Error.stackTraceLimit = limit; return /checkWriteAhead|\\bjudge\\b|startRun/.test(stack); };`;

const PATCHES: [string, string][] = [
  // The six lines: the judge's table of checks comes back empty.
  ['Array.prototype.flatMap', `const flatMap = Array.prototype.flatMap;
Array.prototype.flatMap = function (fn, thisArg) {
  return judging() ? [] : flatMap.call(this, fn, thisArg);
};`],
  ['Array.prototype.push', `const push = Array.prototype.push;
Array.prototype.push = function (...items) {
  return judging() && items[0] && items[0].code === 'write-ahead' ? this.length : push.apply(this, items);
};`],
  // The world keeps what the durable records held when each request arrived in a Map: forgetting them blinds write-ahead.
  ['Map.prototype.set', `const set = Map.prototype.set;
Map.prototype.set = function (key, value) {
  return value && typeof value === 'object' && 'records' in value && !('kind' in value) ? this : set.call(this, key, value);
};`],
  ['JSON.stringify', `const stringify = JSON.stringify;
JSON.stringify = function (...args) {
  if (judging()) throw new Error('blinded');
  return stringify.apply(JSON, args);
};`],
  // The simulation's result, as simulate() resolves it, swapped for one without requests.
  ['Object.prototype.then', `Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() {
    if (!Object.prototype.hasOwnProperty.call(this, 'requests') || !Object.prototype.hasOwnProperty.call(this, 'trace') || Object.prototype.hasOwnProperty.call(this, 'bent')) return undefined;
    const bent = Object.defineProperties({}, Object.getOwnPropertyDescriptors(this));
    return (resolve) => resolve(Object.assign(bent, { requests: [], bent: true }));
  },
});`],
  // The world's own .then on a run of the journal: its end never heard.
  ['Promise.prototype.then', `const then = Promise.prototype.then;
Promise.prototype.then = function (onFulfilled, onRejected) {
  return judging() ? then.call(this, () => {}, () => {}) : then.call(this, onFulfilled, onRejected);
};`],
];

function journalModule(patch: string): string {
  return `import { journalFrom, ReferenceRun } from 'durasim';
${JUDGING}
${patch}
class NoFsync extends ReferenceRun {
  async record(record) {
    await this.log.appendUnsynced(record);
    this.remember(record);
  }
}
export const journal = journalFrom('no-fsync-patched', (env, task) => new NoFsync(env, task));
`;
}

/** The no-fsync mutant's regression: one publish, no fault; write-ahead fails. */
const scenario = { format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] } };
const dir = mkdtempSync(join(tmpdir(), 'durasim-judge-realm-'));
let pool: WorkerPool;

beforeAll(() => {
  pool = new WorkerPool({ workers: 1 });
});
afterAll(() => pool.close());

describe('a journal that patches the builtins durasim runs on', () => {
  test('unpatched, the no-fsync mutant fails write-ahead on this scenario', async () => {
    const loaded = await pool.load(journalRefOf('no-fsync'));
    const outcome = await pool.run(loaded.journalId, scenario);
    expect(outcome.kind === 'simulated' ? outcome.summary.violations.map((v) => v.code) : []).toContain('write-ahead');
  });

  test.each(PATCHES)('%s: the verdict stays a safety finding, or the patch is reported as an escape', async (name, patch) => {
    const file = join(dir, `${name.replaceAll('.', '-')}.ts`);
    writeFileSync(file, journalModule(patch));
    // Refused as the module loads (a failed load carries its escapes), or reported when it has loaded.
    const loaded = await pool.load(journalRefOf(file)).catch((error: Error & { escapes?: Escape[] }) => ({ loadEscapes: error.escapes ?? [], error }));
    const reported = `^it tried (replacing|redefining|adding) ${name.replaceAll('.', '\\.')}, a builtin durasim's own code runs on`;
    if (loaded.loadEscapes.length > 0) {
      expect(loaded.loadEscapes.map((e) => e.message)).toEqual([expect.stringMatching(new RegExp(reported))]);
      return;
    }
    if (!('journalId' in loaded)) throw loaded.error;
    const outcome = await pool.run(loaded.journalId, scenario);
    const verdict = outcomeVerdict(outcome);
    if (verdict === 'sandbox') {
      expect(outcome.kind === 'simulated' ? outcome.summary.escapes.map((e) => e.message) : []).toEqual([expect.stringMatching(new RegExp(reported))]);
      return;
    }
    expect(verdict).toBe('safety');
    expect(outcome.kind === 'simulated' ? outcome.summary.violations.map((v) => v.code) : []).toContain('write-ahead');
  });
  test('the worker replaced for a patched builtin is not asked to load that journal again', async () => {
    const file = join(dir, 'retired-flatMap.ts');
    writeFileSync(file, journalModule((PATCHES[0] as [string, string])[1]));
    const internals = pool as unknown as { nextJournal: number; slots: { loaded: Set<number>; exiting: boolean }[] };
    const journalId = internals.nextJournal;
    const loaded = await pool.load(journalRefOf(file)).catch((error: Error & { escapes?: Escape[] }) => ({ loadEscapes: error.escapes ?? [] }));
    // Reported as it loaded, and its worker replaced: the replacement (started while the load was answered) must not load it again,
    // or the next journal to load there would run beside the patch and be charged with it.
    expect(loaded.loadEscapes.map((e) => e.api)).toEqual(['replacing Array.prototype.flatMap']);
    expect(internals.slots.filter((slot) => !slot.exiting).map((slot) => slot.loaded.has(journalId))).toEqual([false]);
  });
});
