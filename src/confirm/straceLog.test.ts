/** strace's log as the confirmation reads it: a call per line, split calls joined, hex decoded, cut strings and failures told. */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fdArg, splitArgs, StraceLog, stringArg } from './straceLog.js';

const hex = (text: string): string => [...Buffer.from(text)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');

describe('StraceLog', () => {
  test('reads completed calls as the log grows, joins an unfinished call with its resumption, keeps a partial line for later, and passes over a call a killed tracee never named', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'durasim-strace-')), 'log');
    writeFileSync(file, [
      `12  1796249872.144401 openat(AT_FDCWD<${hex('/w')}>, "${hex('a.txt')}", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 18<${hex('/w/a.txt')}>`,
      `13  1796249872.145625 write(18<${hex('/w/a.txt')}>, "${hex('hi, you')}", 7 <unfinished ...>`,
      `12  1796249872.145700 rename("${hex('a')}", "${hex('b')}") = -1 ENOENT (No such file or directory)`,
      `13  1796249872.145900 <... write resumed>) = 7`,
      '12  1796249872.146000 +++ exited with 0 +++',
      '14  1796249872.146050 ???( <unfinished ...>',
      '14  1796249872.146060 +++ killed by SIGKILL +++',
      `12  1796249872.146100 fsync(18<${hex('/w/a')}`,
    ].join('\n'));
    const log = new StraceLog(file);
    const calls = log.read();
    expect(calls.map((c) => [c.name, c.result, c.errno ?? null])).toEqual([['openat', 18, null], ['rename', -1, 'ENOENT'], ['write', 7, null]]);
    expect(calls[0]?.resultPath).toBe('/w/a.txt');
    expect(calls[2]?.atUs).toBe(1796249872145625); // the time it was entered
    expect(stringArg(calls[2]?.args[1] ?? '')?.bytes.toString()).toBe('hi, you');
    appendFileSync(file, `${hex('.txt')}>) = 0\n`);
    expect(log.read().map((c) => [c.name, fdArg(c.args[0] ?? '')?.path])).toEqual([['fsync', '/w/a.txt']]);
    expect(log.odd).toEqual([]);
  });

  test('arguments split at top-level commas only; a string strace cut short says so; raw fds are numbers', () => {
    expect(splitArgs(`3<${hex('/x')}>, [{iov_base="${hex('a,b')}", iov_len=3}, {iov_base="", iov_len=0}], 2`)).toHaveLength(3);
    expect(stringArg(`"${hex('abc')}"...`)).toEqual({ bytes: Buffer.from('abc'), cut: true });
    expect(fdArg('0x12')).toEqual({ fd: 18 });
    expect(fdArg(`AT_FDCWD<${hex('/tmp')}>`)).toEqual({ fd: 'cwd', path: '/tmp' });
  });
});
