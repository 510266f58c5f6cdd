import { describe, expect, test } from 'vitest';
import { isCommandShell, parentPid, switchesOf } from './parentShell.mjs';

describe("the parent shell's signals (parentShell.mjs)", () => {
  test('the parent pid is the field after the state, whatever the command name holds', () => {
    expect(parentPid('4242 (node) S 4100 4242 4100 0 -1')).toBe(4100);
    expect(parentPid('4242 (a (b) c) R 17 4242 17 0 -1')).toBe(17);
  });

  test('a command shell is sh or dash running -c; an interactive shell, bash or npm is not watched', () => {
    expect(isCommandShell('sh\0-c\0durasim check --runs 5\0')).toBe(true);
    expect(isCommandShell('/bin/sh\0-c\0durasim\0')).toBe(true);
    expect(isCommandShell('/usr/bin/dash\0-c\0durasim\0')).toBe(true);
    expect(isCommandShell('-bash\0')).toBe(false);
    expect(isCommandShell('sh\0')).toBe(false);
    expect(isCommandShell('bash\0-c\0durasim\0')).toBe(false);
    expect(isCommandShell('npm exec durasim check\0')).toBe(false);
    expect(isCommandShell(undefined)).toBe(false);
  });

  test('context switches, voluntary and not, summed from /proc/<pid>/status', () => {
    expect(switchesOf('Name:\tsh\nvoluntary_ctxt_switches:\t3\nnonvoluntary_ctxt_switches:\t2\n')).toBe(5);
    expect(switchesOf(undefined)).toBeUndefined();
  });
});
