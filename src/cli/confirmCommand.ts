/**
 * durasim confirm <scenario.json>: is a simulated failure real? The scenario runs twice — simulated
 * (with the journal's modules loaded afresh at every incarnation, as a real restart loads them) and
 * for real (src/confirm/realRun.ts: real processes, real files, a real node:http service, real
 * SIGKILLs) — and the same judge reads both.
 *
 * Verdicts: confirmed (every simulated violation, by invariant and key, happens for real: exit 1 for
 * safety, 3 for liveness); both clean (exit 0); not reproduced (the worlds part: the first step
 * where their traces differ is shown; exit 4); cannot confirm (the scenario needs a fault real
 * processes cannot produce, or the violation is about what a machine crash would lose: exit 2).
 */
import type { Violation } from '../../model/violation.js';
import { invariantKind } from '../../model/violation.js';
import { judge } from '../../model/judge.js';
import { describeLoss, type CrashRecord } from '../../simulator/runRecords.js';
import type { Fault, Scenario } from '../../simulator/scenario.js';
import { runForReal, unconfirmable } from '../confirm/realRun.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { loadOrEscape, violationLines, type PoolFlags } from './check.js';
import { EXIT } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { readScenarioFile } from './scenarioFile.js';

export interface ConfirmOptions extends PoolFlags {
  file: string;
  journal?: string;
  /** Wall-clock limit of the real run. */
  wallLimitMs?: number;
}

const identity = (v: Violation): string => `${v.code} [${v.key}]`;

/** A violation whose evidence is what only the page cache held, or the durable image alone: a process kill cannot show it. */
function aboutDurability(v: Violation): boolean {
  return (v.code === 'write-ahead' || v.code === 'truthful-outcome') && /page cache|durable image|durable record/.test(v.actual);
}

/** Worker steps as "worker-0#1 step 3 fs.open", from the simulated trace or the real one. */
function steps(lines: readonly { actor: string; op: string; incarnation?: number; step?: number }[], real: boolean): string[] {
  return real
    ? lines.filter((l) => /^worker-\d+#\d+$/.test(l.actor) && /^step \d+ [^:]+$/.test(l.op)).map((l) => `${l.actor} ${l.op}`)
    : lines.filter((l) => l.actor.startsWith('worker-') && l.step !== undefined && !l.op.endsWith(':result') && l.op !== 'timer').map((l) => `${l.actor}#${l.incarnation ?? 0} step ${l.step} ${l.op}`);
}

/**
 * The scenario with each machine crash that, in the simulation, lost nothing and killed only the
 * worker it struck, turned into a process kill: then the two are the same event.
 */
function asProcessKills(scenario: Scenario, crashes: readonly CrashRecord[]): Scenario {
  let changed = false;
  const faults = scenario.faults.map((fault): Fault => {
    if (fault.kind !== 'crash' || fault.mode === 'keep-all') return fault;
    const fired = crashes.find((c) => c.fault === fault || JSON.stringify(c.fault) === JSON.stringify(fault));
    if (!fired || fired.killed.length !== 1 || describeLoss(fired.disk).length > 0) return fault;
    changed = true;
    const { tornKeepBytes: _bytes, tail: _tail, keep: _keep, ...kill } = fault;
    return { ...kill, mode: 'keep-all' } as Fault;
  });
  return changed ? { ...scenario, faults } : scenario;
}

export async function runConfirm(options: ConfirmOptions, print: (line: string) => void): Promise<number> {
  const scenario = readScenarioFile(options.file, 'Pass the path of a scenario file, e.g. a regression from reports/regressions/');
  const ref = journalRefOf(options.journal);
  print(`confirm ${options.file} · journal ${ref.spec} · real processes, real files, a real node:http service`);
  const pool = new WorkerPool({ ...options, workers: 1 });
  let simulated: Violation[];
  let simulatedSteps: string[];
  let realScenario = scenario;
  try {
    const loaded = await loadOrEscape(pool, ref, print);
    if (typeof loaded === 'number') return loaded;
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full', modules: 'fresh' });
    if (outcome.kind === 'harness-error') return reportHarnessFailure(outcome.message, scenario, 'durasim-report', print);
    if (outcome.kind !== 'simulated' || !outcome.result) {
      print(`cannot confirm: the simulated run did not finish (${outcome.kind}${'detail' in outcome ? `: ${outcome.detail}` : ''}).`);
      return EXIT.usage;
    }
    simulated = outcome.summary.violations;
    simulatedSteps = steps(outcome.result.trace, false);
    realScenario = asProcessKills(scenario, outcome.result.crashes);
  } finally {
    await pool.close();
  }
  const why = unconfirmable(realScenario);
  if (why !== undefined) {
    print(`cannot confirm: ${why}.`);
    return EXIT.usage;
  }
  if (realScenario !== scenario) print('a machine crash that lost nothing and killed one worker runs as a process kill: on that disk, at that moment, it is one');
  const real = await runForReal(ref, realScenario, options.wallLimitMs === undefined ? {} : { wallLimitMs: options.wallLimitMs });
  const found = judge(real.input);
  const realSteps = steps(real.input.trace, true);
  print(`simulated: ${simulated.length === 0 ? 'no violation' : simulated.map(identity).join(', ')}`);
  print(`real (${real.wallMs.toFixed(0)} ms, ${realSteps.length} worker steps): ${found.length === 0 ? 'no violation' : found.map(identity).join(', ')}`);
  const parting = simulatedSteps.findIndex((line, i) => realSteps[i] !== line);
  if (parting === -1 && realSteps.length === simulatedSteps.length) print(`steps: the real processes took the simulation's ${simulatedSteps.length} worker steps, in its order`);
  else {
    const i = parting === -1 ? Math.min(simulatedSteps.length, realSteps.length) : parting;
    print(`steps: the worlds part at worker step ${i}: simulated ${simulatedSteps[i] ?? '(nothing)'} | real ${realSteps[i] ?? '(nothing)'}`);
  }
  const seen = new Set(found.map(identity));
  const confirmed = simulated.filter((v) => seen.has(identity(v)));
  const missing = simulated.filter((v) => !seen.has(identity(v)));
  const durability = missing.filter(aboutDurability);
  const notReal = missing.filter((v) => !aboutDurability(v));
  const extra = found.filter((v) => !simulated.some((s) => identity(s) === identity(v)));
  const durabilityNote = durability.length > 0 ? `${durability.map(identity).join(', ')}: about what only the page cache held; a process kill keeps the page cache, and only a machine crash would lose it` : '';
  if (simulated.length === 0 && found.length === 0) {
    print('verdict: both clean');
    return EXIT.clean;
  }
  if (notReal.length === 0 && confirmed.length > 0) {
    print(`verdict: confirmed — the same violations in real processes${durability.length > 0 ? `, except what cannot be (${durabilityNote})` : ''}`);
    for (const line of violationLines(found.filter((v) => confirmed.some((s) => identity(s) === identity(v))))) print(`  ${line}`);
    if (extra.length > 0) print(`  real processes also broke ${extra.map(identity).join(', ')}`);
    return confirmed.some((v) => invariantKind(v.code) === 'safety') ? EXIT.safety : EXIT.liveness;
  }
  if (notReal.length === 0 && durability.length > 0 && extra.length === 0) {
    print(`cannot confirm: ${durabilityNote}.`);
    return EXIT.usage;
  }
  print(`verdict: not reproduced — ${notReal.length > 0 ? `${notReal.map(identity).join(', ')} did not happen for real` : `real processes broke ${extra.map(identity).join(', ')}, the simulation did not`}`);
  for (const line of real.lines.slice(-12)) print(`  real: ${line}`);
  return EXIT.sandbox;
}
