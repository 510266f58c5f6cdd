/**
 * The quick-start job: simulate N generated scenarios against the bundled reference journal and
 * print a summary. Usage: npm start -- [--runs N] [--seed S]
 */
import fc from 'fast-check';
import { scenarioArbitrary, FAULT_KINDS } from './arbitraries.js';
import { failureMessage } from './failure.js';
import { referenceJournal } from './journals/reference.js';
import { simulate } from '../simulator/simulate.js';
import { scenarioToJson, type Scenario } from '../simulator/scenario.js';
import { judge, verdict } from '../model/judge.js';
import { describeViolation, type Violation } from '../model/violation.js';

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`${failureMessage(`read ${name}`, `${JSON.stringify(args[at + 1] ?? '')} is not a whole number`, `Pass ${name} followed by a number, e.g. ${name} 500`)}\n`);
    process.exit(2);
  }
  return value;
}

const args = process.argv.slice(2);
const runs = option(args, '--runs', 1000);
// allow-ambient: the CLI picks a fresh seed when none is given; it is printed first so any run replays.
const seed = option(args, '--seed', Date.now() % 2 ** 31);
console.log(`seed ${seed} · faults ${FAULT_KINDS.join(',')} (each run draws its own mix) · journal ${referenceJournal.name} · ${runs} runs`);

const scenarios = fc.sample(scenarioArbitrary(), { numRuns: runs, seed });
const outcomes = new Map<string, number>();
const finals = new Map<string, number>();
let maxEffectsPerKey = 0;
let steps = 0;
const violationsByCode = new Map<string, number>();
let firstFailure: { scenario: Scenario; violations: Violation[] } | undefined;
let safetyRuns = 0;
let livenessRuns = 0;
const started = process.hrtime.bigint();
for (const [i, scenario] of scenarios.entries()) {
  const result = await simulate(referenceJournal, scenario);
  steps += result.stats.steps;
  const outcome = result.outcome.kind === 'bounds-exceeded' ? `bounds-exceeded (${result.outcome.bound})` : result.outcome.kind;
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  const perKey = new Map<string, number>();
  for (const effect of result.effects) if (effect.requestIndex !== null) perKey.set(effect.key, (perKey.get(effect.key) ?? 0) + 1);
  maxEffectsPerKey = Math.max(maxEffectsPerKey, ...perKey.values());
  const found = verdict(judge(result));
  if (found.safety.length > 0) safetyRuns++;
  else if (found.liveness.length > 0) livenessRuns++;
  for (const v of [...found.safety, ...found.liveness]) violationsByCode.set(v.code, (violationsByCode.get(v.code) ?? 0) + 1);
  if (!firstFailure && found.safety.length + found.liveness.length > 0) firstFailure = { scenario, violations: [...found.safety, ...found.liveness] };
  for (const record of Object.values(result.final.visible)) {
    const state = `${record.kind === 'file' ? 'file ' : ''}${record.history.at(-1) ?? 'none'}`;
    finals.set(state, (finals.get(state) ?? 0) + 1);
  }
  if (process.stdout.isTTY && (i + 1) % 100 === 0) process.stdout.write(`\r${i + 1}/${runs} runs`);
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
if (process.stdout.isTTY) process.stdout.write('\r');
const list = (m: Map<string, number>): string => [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
console.log(`${runs} scenarios in ${seconds.toFixed(2)} s (${(runs / seconds).toFixed(0)} per second, ${(steps / Math.max(1, runs)).toFixed(1)} steps each)`);
console.log(`outcomes: ${list(outcomes)}`);
console.log(`final states: ${list(finals)}`);
console.log(`most effects the run made for one key: ${maxEffectsPerKey}`);
console.log(`safety violations: ${safetyRuns} run(s); liveness only: ${livenessRuns} run(s)${violationsByCode.size > 0 ? ` (${list(violationsByCode)})` : ''}`);
if (firstFailure) {
  console.log(`first failing scenario:\n${firstFailure.violations.map(describeViolation).join('\n')}\n${JSON.stringify(scenarioToJson(firstFailure.scenario))}`);
  process.exitCode = safetyRuns > 0 ? 1 : 3;
}
