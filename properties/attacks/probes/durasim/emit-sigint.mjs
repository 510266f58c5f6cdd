// Tries: process.emit('SIGINT') (runs the thread's SIGINT listeners, durasim's if it has any there).
// Expected: harmless — a simulated process gets no signals; nothing of durasim's stops (docs/adapters.md).
import { probe } from '../../lib/probe.mjs';

export default probe('emit-sigint', () => process.emit('SIGINT', 'SIGINT'));
