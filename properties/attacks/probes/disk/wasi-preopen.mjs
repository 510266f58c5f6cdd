// Tries: node:wasi with the canary folder preopened, and a hand-made wasm module whose _start calls
//   path_create_directory there.
// Expected: refused — WASI reaches the real disk outside node:fs; outward-facing ways must be refused (README "The sandbox").
// API: wasi|WASI
import { WASI } from 'node:wasi';
import { probe, env } from '../../lib/probe.mjs';

const str = (s) => [s.length, ...Buffer.from(s)];
const section = (id, bytes) => [id, bytes.length, ...bytes];
const wasm = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, [2, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f, 0x60, 0, 0]),
  ...section(2, [1, ...str('wasi_snapshot_preview1'), ...str('path_create_directory'), 0, 0]),
  ...section(3, [1, 1]), ...section(5, [1, 0, 1]),
  ...section(7, [2, ...str('memory'), 2, 0, ...str('_start'), 0, 1]),
  ...section(10, [1, 11, 0, 0x41, 3, 0x41, 0, 0x41, 4, 0x10, 0, 0x1a, 0x0b]),
  ...section(11, [1, 0, 0x41, 0, 0x0b, ...str('wasi')])]);

export default probe('wasi-preopen', async () => {
  const wasi = new WASI({ version: 'preview1', preopens: { '/sandbox': env('ATTACK_DIR') } });
  wasi.start(await WebAssembly.instantiate(await WebAssembly.compile(wasm), wasi.getImportObject()));
});
