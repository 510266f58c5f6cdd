import { describe, expect, test } from 'vitest';
import { refusedOptions, startWorker, withoutTsx } from './workerExecArgv.js';

describe("a pool worker's Node options", () => {
  test("tsx's registration is left out, in each form Node takes it", () => {
    expect(withoutTsx(['--expose-gc', '--import', 'tsx'])).toEqual(['--expose-gc']);
    expect(withoutTsx(['--import=tsx', '--max-semi-space-size=64'])).toEqual(['--max-semi-space-size=64']);
    expect(withoutTsx(['--loader', 'tsx/esm', '--require', 'tsx/cjs', '-r', 'tsx/cjs'])).toEqual([]);
    expect(withoutTsx(['--experimental-loader=tsx'])).toEqual([]);
  });

  test("every other option is kept as the process has it, a preload of the user's among them", () => {
    const options = ['--import', './register-env.mjs', '--require=dotenv/config', '--enable-source-maps', '--import', 'tsxlike', '--conditions', 'tsx'];
    expect(withoutTsx(options)).toEqual(options);
    expect(withoutTsx([])).toEqual([]);
  });

  test('the options Node refuses to hand a worker are read off its error, and nothing else is', () => {
    expect(refusedOptions(Object.assign(new Error('Initiated Worker with invalid execArgv flags: --max-semi-space-size=64, --expose-gc'), { code: 'ERR_WORKER_INVALID_EXEC_ARGV' }))).toEqual(['--max-semi-space-size=64', '--expose-gc']);
    expect(refusedOptions(new Error('Initiated Worker with invalid execArgv flags: --x'))).toBeUndefined();
    expect(refusedOptions(undefined)).toBeUndefined();
  });

  test("a worker started under tsx and V8's options runs without tsx's preload, the rest of its options kept", async () => {
    const preload = new URL('./fixtures/preloadMark.mjs', import.meta.url).pathname;
    const worker = startWorker(new URL('./fixtures/reportOptions.mjs', import.meta.url), {}, ['--max-semi-space-size=64', '--import', 'tsx', '--import', preload, '--enable-source-maps']);
    const answer = await new Promise<{ argv: string[]; marked: boolean }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(answer.argv).toEqual(['--import', preload, '--enable-source-maps']);
    expect(answer.marked).toBe(true);
  });
});
