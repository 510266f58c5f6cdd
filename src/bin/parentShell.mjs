// The signals `npx durasim` gets, passed on to durasim. npx runs the command as npm's grandchild:
// npm → `sh -c "durasim …"` → node. Ctrl-C on a terminal signals the whole process group, node
// included; but `kill <npx's pid>`, `timeout`, and a CI runner that signals one process reach npm
// alone, which hands SIGINT and SIGTERM to that shell — and Debian's and Ubuntu's sh (dash) passes
// neither on: at SIGINT it waits for its command to end (so durasim never hears of it), at SIGTERM
// it ends at once and leaves durasim running on its own. So when this process's parent is such a
// shell (`sh -c` or `dash -c`), it watches it, on Linux, and passes on what it got:
// - the shell ended (SIGTERM, SIGHUP…): this process's parent changes — SIGTERM;
// - the shell woke while it still waits (a signal it caught: SIGINT) — the count of its context
//   switches moved, where waiting it makes none — SIGINT. Only while this process is the shell's one
//   child: another child's start or end wakes it too.
// A signal passed on reaches durasim's own handler ('durasim:wrapper-signal', src/cli/interrupt.ts,
// which takes a wake that comes with a signal of this process's own — Ctrl-C signals both — as
// that one) or, where the command has none, ends the process as the signal itself would.
// Plain JavaScript: it runs before anything else of durasim's can load.
import { readFileSync } from 'node:fs';

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** This process's parent's pid, from the kernel (field 4 of /proc/self/stat, after the command's name). */
export function parentPid(stat = read('/proc/self/stat')) {
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[1]);
}

/** True when `cmdline` (a /proc cmdline: argv joined by NULs) is a POSIX shell running one command string: `sh -c …`, `dash -c …`. */
export function isCommandShell(cmdline) {
  if (cmdline === undefined) return false;
  const [shell, flag] = cmdline.split('\0');
  return /(^|\/)(sh|dash)$/.test(shell ?? '') && flag === '-c';
}

/** How often `pid` was switched out (voluntary and not): it moves only when the process runs. */
export function switchesOf(status) {
  if (status === undefined) return undefined;
  let sum = 0;
  for (const [, n] of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) sum += Number(n);
  return sum;
}

/** The pids of `pid`'s children, as the kernel lists them ('' when it cannot say). */
function childrenOf(pid) {
  return (read(`/proc/${pid}/task/${pid}/children`) ?? '').trim();
}

/** The event durasim's own handler listens for; without one, the signal itself is raised. */
export const WRAPPER_SIGNAL = 'durasim:wrapper-signal';

function passOn(signal) {
  if (process.listenerCount(WRAPPER_SIGNAL) > 0) process.emit(WRAPPER_SIGNAL, signal);
  else process.kill(process.pid, signal);
}

/**
 * Watches the parent shell (see above) every `intervalMs`; returns a function that stops watching,
 * or undefined when there is nothing to watch (not Linux, or the parent is no `sh -c`).
 */
export function watchParentShell(intervalMs = 100) {
  const shell = parentPid();
  if (shell === undefined || !isCommandShell(read(`/proc/${shell}/cmdline`))) return undefined;
  const alone = () => childrenOf(shell) === String(process.pid);
  if (!alone()) return undefined;
  let switches = switchesOf(read(`/proc/${shell}/status`));
  if (switches === undefined) return undefined;
  // Ctrl-Z and fg stop and continue the shell too: its switches then say nothing.
  let continuedAt = -Infinity;
  const onContinue = () => (continuedAt = performance.now());
  process.on('SIGCONT', onContinue);
  const timer = setInterval(() => {
    if (parentPid() !== shell) {
      stop();
      passOn('SIGTERM');
      return;
    }
    const now = switchesOf(read(`/proc/${shell}/status`));
    if (now === undefined || now === switches) return;
    switches = now;
    // A moment later, so that a SIGCONT of this process (Ctrl-Z, fg), or its own SIGINT (Ctrl-C), is heard first.
    setTimeout(() => {
      if (performance.now() - continuedAt > 1000 && alone()) passOn('SIGINT');
    }, 50).unref();
  }, intervalMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    process.off('SIGCONT', onContinue);
  };
  return stop;
}
