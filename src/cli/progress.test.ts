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

  test('a bar on a TTY, redrawn in place, ending with a newline', () => {
    const out = stream(true);
    const progress = new Progress(10, out);
    progress.update(10, 1);
    progress.done();
    expect(out.text).toMatch(/^\r\[#{24}\] 10\/10 runs · \d+\/s · 1 violation\(s\) \n$/);
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

  test('silent when disabled', () => {
    const out = stream(true);
    const progress = new Progress(10, out, false);
    progress.update(10, 0);
    progress.done();
    expect(out.text).toBe('');
  });
});
