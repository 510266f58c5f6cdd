// Tries: process.dlopen of the real C library (a native load from the real disk).
// Expected: refused — native code is outside every guard.
// API: dlopen
// Limit: README "Known limits": native addons are not guarded.
import { probe } from '../../lib/probe.mjs';

export default probe('dlopen-libc', () => process.dlopen({ exports: {} }, '/lib/x86_64-linux-gnu/libc.so.6'));
