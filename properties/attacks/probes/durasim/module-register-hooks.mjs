// Tries: module.register of loader hooks (a data: URL) whose resolve writes the canary: it would run for every
//   module durasim loads afterwards.
// Expected: refused — it changes the real process's module loading; nothing serves it.
// API: register
import { register } from 'node:module';
import { probe, canary } from '../../lib/probe.mjs';

const hooks = `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  try { fs.writeFileSync(${JSON.stringify(canary('loader-hook'))}, specifier); } catch {}
  return next(specifier, context);
}`;
export default probe('module-register-hooks', () => register(`data:text/javascript,${encodeURIComponent(hooks)}`));
