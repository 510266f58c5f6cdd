import { describe, expect, test } from 'vitest';
import { Progress } from './progress.js';

function stream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const fake = { isTTY, text: '', write(chunk: string) { fake.text += chunk; return true; } };
  return fake as unknown as NodeJS.WriteStream & { text: string };
}

describe('Progress', () => {
  test('plain lines every tenth of the budget when not a TTY', () => {
    const out = stream(false);
    const progress = new Progress(100, out);
    for (let done = 1; done <= 100; done++) progress.update(done, 0);
    progress.done();
    const lines = out.text.trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^progress: 10\/100 runs, \d+\/s, 0 violation\(s\)$/);
    expect(lines[9]).toMatch(/^progress: 100\/100 runs/);
  });

  test('a bar on a TTY, redrawn in place (the line cleared first: a longer sweep line may be under it), ending with a newline', () => {
    const out = stream(true);
    const progress = new Progress(10, out);
    progress.update(10, 1);
    progress.done();
    expect(out.text).toMatch(/^\r\u001b\[2K\[#{24}\] 10\/10 runs · \d+\/s · 1 violation\(s\) \n$/);
  });

  test('while a counterexample shrinks, on a TTY: how far it got, redrawn on the bar\'s line; nothing off a TTY', () => {
    const out = stream(true);
    const progress = new Progress(10, out);
    progress.shrinking({ attempts: 40, steps: 7, faults: 3 });
    progress.shrinking({ attempts: 41, steps: 8, faults: 1 }); // within 100 ms: not drawn
    progress.done();
    expect(out.text).toBe('\r\u001b[2Kshrinking: 40 candidates tried, 7 taken, 3 faults left \n');
    const plain = stream(false);
    new Progress(10, plain).shrinking({ attempts: 40, steps: 7, faults: 1 });
    expect(plain.text).toBe('');
  });

  test('while the single-fault sweep runs: a plain line at every tenth of the crash points off a TTY, a redrawn line on one', () => {
    const plain = stream(false);
    const progress = new Progress(1000, plain);
    for (let explored = 8; explored <= 80; explored += 8) progress.sweeping(explored * 9, explored * 9 - 1, { explored, of: 80 });
    const lines = plain.text.trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('progress: single-fault sweep: 8/80 crash points, 71 states judged in 72 runs');
    expect(lines[9]).toBe('progress: single-fault sweep: 80/80 crash points, 719 states judged in 720 runs');
    const tty = stream(true);
    const bar = new Progress(1000, tty);
    bar.sweeping(9, 8, { explored: 8, of: 80 });
    bar.sweeping(18, 16, { explored: 16, of: 80 }); // within 100 ms and not the last: not drawn
    bar.sweeping(720, 719, { explored: 80, of: 80 }); // the last is drawn
    expect(tty.text).toBe('\r\u001b[2Ksingle-fault sweep: 8/80 crash points, 8 states judged in 9 runs \r\u001b[2Ksingle-fault sweep: 80/80 crash points, 719 states judged in 720 runs ');
    const off = stream(true);
    new Progress(10, off, false).sweeping(9, 8, { explored: 8, of: 80 });
    expect(off.text).toBe('');
  });

  test('silent when disabled', () => {
    const out = stream(true);
    const progress = new Progress(10, out, false);
    progress.update(10, 0);
    progress.done();
    expect(out.text).toBe('');
  });
});
