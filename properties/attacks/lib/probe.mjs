// Helpers every probe uses, so that each probe file holds only its one way out. Not a probe.
//
// - probe(name, attack, { base, inspect }) wraps a base journal (good: clean under check;
//   unsynced: a safety finding at once) into an adapter named attack-<name> whose run() first tries
//   the attack, catching whatever it throws (a journal that catches a refusal must still be
//   refused), then runs the base journal.
// - leak(what, value) throws an error marked ATTACK-LEAK: a probe calls it when it has proof that a
//   real value reached journal code (the runner passes the real machine's values in ATTACK_REAL_*).
//   It is never caught here, so the incarnation dies of it and the verdict shows it.
// - observe(label, value) prints the value (kept in the trace) and takes (hash of it mod 13) extra
//   served steps, so a value that differs from run to run moves the step count that summary.json
//   reports, where the runner compares its two runs.
// - escapeWrite(tag) tries one real write into the canary folder (ATTACK_DIR) with a reference taken
//   when this module loaded: the payload of the probes that get code run at odd moments.
import * as fs from 'node:fs';
import { stat } from 'node:fs/promises';
import good from './good.mjs';

const LOADED_ENV = { ...process.env };
/** A variable the runner passes (read now, else as it was when the module loaded). */
export const env = (name) => process.env[name] ?? LOADED_ENV[name];
export const canary = (tag) => `${env('ATTACK_DIR')}/${tag}`;

const MARK = 'ATTACK-LEAK';
export function leak(what, value) {
  throw new Error(`${MARK} ${what}: ${String(value).slice(0, 200)}`);
}
const isLeak = (error) => String(error?.message ?? '').startsWith(MARK);

export async function attempt(fn) {
  try {
    return await fn();
  } catch (error) {
    if (isLeak(error)) throw error;
    return error;
  }
}

export async function observe(label, value) {
  const text = String(value);
  console.log(`probe ${label}: ${text.slice(0, 500)}`);
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) >>> 0;
  for (let i = 0; i < hash % 13; i++) await stat('.');
}

const writeFileSync = fs.writeFileSync;
export function escapeWrite(tag) {
  try {
    writeFileSync(canary(tag), 'escaped');
  } catch {
    // refused or served (ENOENT): either way nothing real; the runner looks at the folder
  }
}

/** Real time within 30 days of the runner's start (the virtual clock starts 2026-01-01 and runs hours). */
export const nearRealNow = (ms) => Math.abs(Number(ms) - Number(env('ATTACK_REAL_NOW'))) < 30 * 24 * 3600 * 1000;

export function probe(name, attack, { base = good, inspect } = {}) {
  return {
    name: `attack-${name}`,
    async run(runEnv, task) {
      if (attack) await attempt(() => attack(runEnv, task));
      return base.run(runEnv, task);
    },
    inspect: inspect ?? ((disk, store) => base.inspect(disk, store)),
  };
}
