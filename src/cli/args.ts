/**
 * Command-line parsing: flags are declared, unknown ones refused, values checked — every problem
 * a `Failed to <action>: <reason>. <fix>` error (exit 2), before anything is written.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { DurasimError } from '../../model/contract/failure.js';
import { closestName } from './closestName.js';
import { FAULT_KINDS, OPERATION_KINDS, TASK_FEATURES, type FaultKind } from '../arbitraries.js';
import { INVARIANT_CODES, type InvariantCode } from '../../model/violation.js';
import { environmentProblem, shownName } from './environmentLimits.js';

/** 'env': NAME=VALUE, repeatable; the flag's value is then an object of them. */
export type FlagKind = 'string' | 'int' | 'positive' | 'seed' | 'boolean' | 'duration' | 'shard' | 'faults' | 'operations' | 'features' | 'invariants' | 'env';

/** A variable's name as a shell names it (--env, the config's "env"). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Seeds are 32-bit: a larger one is refused, never silently wrapped. */
export const SEED_LIMIT = 2 ** 32;

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, unknown>;
}

export function usageError(reason: string, fix: string): DurasimError {
  return new DurasimError('read the command line', reason, fix);
}

/** "60s", "2m", "500ms", "30d", "90" (seconds) → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2] ?? 's';
  return Math.round(value * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as 'ms' | 's' | 'm' | 'h' | 'd']);
}

export function parseShard(text: string): { index: number; count: number } | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

export function parseFaults(text: string): FaultKind[] | undefined {
  const kinds = text.split(',').map((k) => k.trim()).filter(Boolean);
  if (kinds.length === 0 || kinds.some((k) => !(FAULT_KINDS as readonly string[]).includes(k))) return undefined;
  return kinds as FaultKind[];
}

/**
 * Node's own parser (`util.parseArgs`) splits the words (`--flag value`, `--flag=value`, `--`);
 * durasim checks each flag against the command's spec, so every refusal is in the house style and
 * a mistyped flag gets the one it most likely meant.
 */
export function parseArgs(argv: readonly string[], spec: Record<string, FlagKind>, command: string): ParsedArgs {
  const options = Object.fromEntries(Object.entries(spec).map(([name, kind]) => [name, { type: kind === 'boolean' ? 'boolean' : 'string' } as const]));
  const { tokens } = parseNodeArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const positional: string[] = [];
  const flags: Record<string, unknown> = {};
  const help = `Run "durasim ${command} --help" for its flags`;
  for (const token of tokens) {
    if (token.kind === 'positional') positional.push(token.value);
    if (token.kind !== 'option') continue;
    const kind = spec[token.name];
    if (kind === undefined) {
      const meant = closestName(token.name, Object.keys(spec));
      throw usageError(`${command} has no flag ${token.rawName}`, meant ? `Did you mean --${meant}? ${help}` : help);
    }
    if (kind === 'boolean') {
      if (token.inlineValue) throw usageError(`--${token.name} takes no value, found ${JSON.stringify(token.value)}`, `Pass --${token.name} alone`);
      flags[token.name] = true;
      continue;
    }
    const raw = token.value;
    // A negative number is a value (refused by the flag's own check, which says what it must be); another flag is not.
    if (raw === undefined || (!token.inlineValue && raw.startsWith('-') && !/^-\d/.test(raw))) throw usageError(`--${token.name} needs a value`, help);
    if (kind === 'env') {
      const [name, value] = envPair(token.name, raw);
      const env = (flags[token.name] ??= {}) as Record<string, string>;
      if (name in env && env[name] !== value) throw usageError(`--${token.name} names ${name} twice, with two values`, `Pass --${token.name} ${name}=<value> once`);
      env[name] = value;
      continue;
    }
    flags[token.name] = convert(token.name, kind, raw);
  }
  for (const [name, kind] of Object.entries(spec)) {
    if (kind !== 'env' || flags[name] === undefined) continue;
    // Held to the scenario's limits here: every scenario of the run, and every one saved, carries them.
    const problem = environmentProblem(flags[name] as Record<string, string>);
    if (problem !== undefined) throw usageError(`--${name}${problem.name === undefined ? ' gives' : ` ${shownName(problem.name)}=… has`} ${problem.reason}`, problem.fix);
  }
  return { positional, flags };
}

/** NAME=VALUE: a variable's name as a shell names it, and any text (the empty one too). */
function envPair(flag: string, raw: string): [string, string] {
  const at = raw.indexOf('=');
  const name = at < 0 ? raw : raw.slice(0, at);
  if (at < 0 || !ENV_NAME.test(name) || name.length > 200) throw usageError(`--${flag} must be NAME=VALUE with a name of letters, digits and _ (not starting with a digit), found ${JSON.stringify(raw)}`, `Pass e.g. --${flag} LOCK_TTL_MS=5000`);
  return [name, raw.slice(at + 1)];
}

function convert(name: string, kind: FlagKind, raw: string): unknown {
  switch (kind) {
    case 'string':
      return raw;
    case 'int':
    case 'positive': {
      const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
      const least = kind === 'positive' ? 1 : 0;
      if (!Number.isSafeInteger(value) || value < least) throw usageError(`--${name} must be a whole number${least === 1 ? ' of at least 1' : ''}, found ${JSON.stringify(raw)}`, `Pass e.g. --${name} ${name === 'workers' ? 2 : 500}`);
      return value;
    }
    case 'seed': {
      const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value >= SEED_LIMIT) throw usageError(`--${name} must be a whole number from 0 to ${SEED_LIMIT - 1}, found ${JSON.stringify(raw)}`, 'Pass the seed a run printed first, e.g. --seed 42');
      return value;
    }
    case 'duration': {
      const value = parseDuration(raw);
      if (value === undefined || value <= 0) throw usageError(`--${name} must be a duration like 60s, 2m or 500ms, found ${JSON.stringify(raw)}`, `Pass e.g. --${name} 60s`);
      return value;
    }
    case 'shard': {
      const value = parseShard(raw);
      if (!value) throw usageError(`--${name} must be i/n with 1 <= i <= n, found ${JSON.stringify(raw)}`, `Pass e.g. --${name} 1/4 on the first of four CI jobs`);
      return value;
    }
    case 'faults': {
      const value = parseFaults(raw);
      if (!value) throw usageError(`--${name} must be a comma-separated list of ${FAULT_KINDS.join(', ')}, found ${JSON.stringify(raw)}`, `Pass e.g. --${name} crash,response`);
      return value;
    }
    case 'operations':
    case 'features': {
      const known: readonly string[] = kind === 'operations' ? OPERATION_KINDS : TASK_FEATURES;
      if (kind === 'features' && raw.trim() === 'none') return [];
      const names = raw.split(',').map((n) => n.trim()).filter(Boolean);
      const unknown = names.find((n) => !known.includes(n));
      if (names.length === 0 || unknown !== undefined) {
        const meant = unknown === undefined ? undefined : closestName(unknown, known);
        throw usageError(`--${name} must be a comma-separated list of ${known.join(', ')}${kind === 'features' ? ', or none' : ''}, found ${JSON.stringify(unknown ?? raw)}`, meant ? `Did you mean ${meant}?` : `Pass e.g. --${name} ${known[0]}`);
      }
      return [...new Set(names)];
    }
    case 'invariants': {
      const codes = raw.split(',').map((c) => c.trim()).filter(Boolean);
      const unknown = codes.find((c) => !(INVARIANT_CODES as readonly string[]).includes(c));
      if (codes.length === 0 || unknown !== undefined) throw usageError(`--${name} must be a comma-separated list of invariants, found ${JSON.stringify(unknown ?? raw)}`, `Use any of ${INVARIANT_CODES.join(', ')}`);
      return [...new Set(codes)] as InvariantCode[];
    }
    default:
      return raw;
  }
}
