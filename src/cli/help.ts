/**
 * The command line's help: HELP (every command's usage and the notes that apply to all of them),
 * the commands, and one command's help (`durasim help check`). main.ts prints them and re-exports them.
 */
import { FAULT_KINDS, OPERATION_KINDS, TASK_FEATURES } from '../arbitraries.js';

export const HELP = `durasim — deterministic simulation testing for operation journals

usage:
  durasim check   [--journal <module>] [--runs N] [--seed S] [--time-budget 60s]
                  [--faults ${FAULT_KINDS.join(',')}]
                  [--operations ${OPERATION_KINDS.join(',')}] [--features ${TASK_FEATURES.join(',')}|none]
                  [--task <scenario.json>] [--config <durasim.config.json>]
                  [--shard i/n] [--report-dir <dir>] [--junit <file>] [--json] [--regressions <dir>]
                  [--workers N] [--max-heap MB] [--hang-timeout 5s]
                  [--tally] [--invariants a,b] [--safety-only] [--confirm] [--no-real-restart] [--env NAME=VALUE]...
                  [--guided] [--no-sweep] [--sweep-runs N] [--no-pairs] [--pair-runs N] [--no-progress] [--verbose]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim replay  <scenario.json> [--journal <module>] [--config <file>] [--report-dir <dir>] [--max-heap MB] [--hang-timeout 5s]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim explain <scenario.json> [--journal <module>] [--config <file>] [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim confirm <scenario.json> [--journal <module>] [--config <file>] [--wall-limit 60s] [--calls]
                  [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim explore [scenario.json] [--journal <module>] [--depth 1|2] [--all-pairs] [--max-runs N]
                  [--faults ${FAULT_KINDS.join(',')}] [--operations …] [--features …] [--config <file>]
                  [--env NAME=VALUE]... [--report-dir <dir>] [--regressions <dir>] [--workers N] [--no-progress]
                  [--no-real-restart] [--max-steps N] [--max-incarnations N] [--max-virtual-time 2h]
  durasim regressions [list|prune] [--regressions <dir>] [--journal <name|module>] [--family a,b]
                  [--older-than 30d] [--dry-run]
  durasim mutants [--runs N] [--out <dir>] [--workers N]
  durasim merge   <summary.json>...

--journal takes a module whose default export (or export "journal", or its one adapter export) is
a JournalAdapter (.ts loads as is), or a bundled journal: "reference" (the default) or a mutant's name.
check reads durasim.config.json in the working folder (or --config): the task shape — the
operation kinds the journal supports (--operations), the task features in play (--features: token,
budget, cancel, input, temp, or none), the fault families (--faults), your own task to vary
(--task, a scenario file) — and journal, runs, seed, env, bounds, and "service": the API your
worker speaks, a preset (ietf, payments, client-token) and what differs from it
(docs/service-contract.md); flags override it (docs/faults.md).
check and explore record in counterexample.json and every regression file the journal it was found
with (its adapter's name and the module as --journal took it). replay, explain and confirm run
--journal, else the config's journal, else the recorded module (or bundled name); a file that
records none runs the reference, said on its own line. A recorded module that is gone is exit 2;
a journal of another name than the recorded one runs after a "warning:" line (in summary.json too).
A scenario that names no service contract runs there against the config's "service", said on a line.
Runs go to worker threads (--workers, default: one per 50 runs, up to the machine's cores, and
every core to shrink a finding); a journal that holds its thread for --hang-timeout (default 5s,
of the thread's own CPU time) or holds more than --max-heap (default 512 MB) ends that run as a
liveness failure.
A run owns its --report-dir: the report files an earlier run left there that it does not write
(counterexample.json and timeline.html after a clean run, explore's coverage after a check, and the
other way round) are removed before its summary lands; no other file there is touched.
check replays the journal's stored regressions (--regressions, default reports/regressions) first;
one outside the task shape, or of a fault family the run does not draw, is skipped and listed.
regressions list shows each stored regression (file, journal, invariants, fault families, age: from
the date saved, or the file's time for files saved before durasim recorded it); regressions prune
deletes those --journal, --family (any of them) and --older-than (30d, 12h) choose, at least one
filter, and prints each; --dry-run only says what it would delete.
check stops at the first failing run — but a run that only fails to finish (liveness) does not
stop it: it goes on looking for a safety violation, which outranks it (exit 1, both shown and
saved); --tally runs the whole budget, counts failing runs per invariant and saves one shrunk
counterexample of each. --invariants judges only those named;
--safety-only ignores liveness (convergence, runs that hang or run out of memory). --confirm runs
the first counterexample in real processes too (see confirm) and reports what happened there. A
clean check ends with four real restarts of the task, at once (a crash before the first step
naming its first key; before the first step naming its last key once the service has answered,
or its last step naming the task; and in flight, a chain: for the last operation of each kind, the
next incarnation killed before its last step naming its key, so each restarted process recovers an
operation cut short; and the same chain a step earlier: before the step before that one naming the
operation, a publish's request, an edit's placing of its file), each simulated and then run in real processes, in a temporary
folder, against the service on localhost: memory a journal keeps where a simulated crash does not
take it away dies there, and real processes breaking what the simulation did not is a sandbox
verdict (exit 4): a safety invariant, or, in a real run not cut short by its wall-clock limit, a
liveness one (a staged file left behind). Its line says "in real processes: ..."; --no-real-restart leaves them out (the
clean verdict is then the simulation's alone). A clean explore ends with the same four restarts of
its base's task.
--env NAME=VALUE (repeatable) puts a variable in the journal's process.env in every scenario, and
while its modules load (a module that reads its configuration at its top level); it is saved with
the counterexample, so a replay needs no flag. explore takes --env (and the config's env) too.
check records the fault windows every run hits (a fault × the kind of step it struck × whose step:
the first worker, a restarted one, a second one) and prints how many. --guided, after the first 100
runs, aims every other run at a window no run has hit yet: an earlier run with one fault more,
placed at a step it took (the same seed gives the same runs with any number of workers). It widens
the coverage and takes those runs from the drawn ones: on the built-in mutants it finds bugs later
(docs/faults.md), so it is off unless asked for.
Before the drawn runs, check judges every single-fault state of the task's fault-free run (what
explore --depth 1 tries: a crash in every distinct state before and after every step, a kill
after which the worker is back a day later, and every fault of the families drawn that can land
there), each state once: a defect one fault at one step
reveals is found whatever the seed draws. Its line says the states judged, at how many of the run's
crash points, its runs (apart from --runs) and seconds; it stops at the first failing state.
--no-sweep leaves it out (the first line says so): the drawn runs alone, as a quick look.
--sweep-runs N bounds it (default 20000, eleven times the standard task's whole sweep): a journal
whose fault-free run is long has many crash points; the line says where the bound cut it short.
Then, on a bound of their own, check tries two faults: explore --depth 2's pairs kept by
dependency (a second fault at a step that touches the key, file, store entry or lease the first
fault's step touched), in its order: the same key first, and the first fault's own new path in
turn. Its line says the pairs tried of those kept, their runs and seconds; it stops at the first
failing pair (found by the two-fault pairs: ...). --pair-runs N bounds them (default 500, runs
apart from --runs); --no-pairs leaves them out, and --no-sweep both.
explore crashes the base scenario (default: the standard workload with every task feature — a
token, a retry budget, planned inputs, a shared temp folder — and no faults) at every step,
before and after, in every distinct crash state (process kill, lost unsynced data, torn and
per-file states, a kill with the worker back a day later), and tries there every other fault of --faults (default: all; no concurrent call when the config says "calls": "one-at-a-time") that
can land at that step: an I/O error, each service answer and failure class at its request, a
duplicate delivery (also with the newcomer first), a service or store restart, a pause, a
takeover, a store fault or edit, a cancel, a user's save, a changed input. It judges each continuation and prints the coverage table
(per step kind, failing/tried per family); --depth 2 tries again at the points of every continuation
whose step touches what the first fault's step touched (the same key, file, store entry or lease),
the closest first (the same key, then file, store entry, lease; then the nearest steps), so
--max-runs spends itself on them; --all-pairs tries every point. Its line says how many pairs
(a depth-1 state × a point of its continuation) it kept of how many, and their runs and CPU.
confirm runs a scenario in real processes (real files, a real node:http service and shared store,
SIGKILL at its crash steps, real pauses and 503 waits) under strace, builds each machine crash's
disk from the workers' real system calls, and judges both worlds: confirmed (exit 1 or 3: the
simulated violations, or a real safety violation that is the same defect under another invariant),
both clean (0), another violation (1: real processes broke a safety invariant that is neither the
finding nor its consequence), not reproduced (4; "(another order)" when the real processes took
the same steps in another order), cannot confirm (2: an I/O error, no strace for a machine crash,
a fault inside a SQLite call, a native better-sqlite3 built for another Node's ABI), or diverged (6: a step both worlds took alike changed the disk
otherwise than simulated, files the journal created matched by the step that created them, not
their names: a defect of durasim). A journal on better-sqlite3 runs the native module there, its
steps compared outside SQLite, what SQLite's calls changed under the step before them
(docs/sqlite.md); a journal on node:sqlite runs Node's own SQLite there.
--wall-limit defaults to 60 s plus the scenario's waits. --calls prints the real system calls
beside the simulated disk calls, per worker step.
Every run is bounded: 5,000 steps, 12 incarnations a worker and an hour of virtual time by
default, each growing with what a scenario's faults ask of virtual time (its pauses, holds,
delays, waits; a crash adds an incarnation). --max-steps, --max-incarnations and
--max-virtual-time (or the config's "bounds") set them for every run; a run that reaches one says
which (a liveness finding, exit 3), apart from a stall or a deadlock.
Ctrl-C (SIGINT) or SIGTERM stops check and explore keeping the work: no more runs, the runs under
way end, what was found is kept (shrunk as far as it got), the reports are written marked
"interrupted after N of M runs", exit 130 or 143; a second signal exits at once.
Progress goes to stderr: on a terminal a line redrawn as runs end, else a line at every tenth of the
runs, the sweep and the pairs (explore: once its first batch is judged, then every 5 s);
--no-progress leaves it out.
exit codes: 0 clean · 1 safety violation · 2 bad usage or input · 3 liveness · 4 nondeterminism or sandbox escape · 5 durasim failed · 6 confirm: diverged · 130/143 interrupted by SIGINT/SIGTERM`;

export const COMMANDS = ['check', 'replay', 'explain', 'confirm', 'explore', 'regressions', 'mutants', 'merge'] as const;

/** The help of one command: its usage lines from HELP, then the notes that apply to every command. */
export function commandHelp(command: string): string {
  const lines = HELP.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  durasim ${command} `) || line === `  durasim ${command}`);
  if (start === -1) return HELP;
  let end = start + 1;
  while (end < lines.length && /^ {10,}/.test(lines[end] as string)) end++;
  const notes = lines.slice(lines.indexOf('', lines.indexOf('usage:')) + 1);
  return [`usage:`, ...lines.slice(start, end), '', ...notes].join('\n');
}
