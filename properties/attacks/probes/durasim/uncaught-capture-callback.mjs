// Tries: process.setUncaughtExceptionCaptureCallback, taking over every uncaught exception of the thread,
//   durasim's included.
// Expected: refused — it changes the real process's error handling; nothing serves it.
// API: setUncaughtExceptionCaptureCallback
import { probe } from '../../lib/probe.mjs';

export default probe('uncaught-capture-callback', () => process.setUncaughtExceptionCaptureCallback(() => {}));
