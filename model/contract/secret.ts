/**
 * The task's access token, as a canary: a value derived from a number the scenario names (the
 * scenario file holds the number, never the token), recognisable wherever it lands, so durasim
 * can prove it never reached a checkpoint and mask it in everything it prints or writes.
 */
import { digestOf } from './digest.js';

const CANARY_PREFIX = 'durasim-canary-';
/** A canary, or any prefix of one past its fixed start (a preview may cut it short). */
const CANARY_PATTERN = /durasim-canary-[0-9a-f]*/g;
export const SECRET_MASK = '«secret»';

const canaries = new Map<number, string>();
/** The access token of canary number n: "durasim-canary-" and 24 hex digits (remembered: every incarnation asks). */
export function canaryOf(n: number): string {
  let canary = canaries.get(n);
  if (canary === undefined) {
    canary = `${CANARY_PREFIX}${digestOf(`durasim access token canary ${n}`).slice(0, 24)}`;
    if (canaries.size >= 1024) canaries.clear();
    canaries.set(n, canary);
  }
  return canary;
}

/** The text with every canary (whole, or cut short after its prefix) replaced by «secret». */
export function maskSecrets(text: string): string {
  return text.includes(CANARY_PREFIX) ? text.replace(CANARY_PATTERN, SECRET_MASK) : text;
}
