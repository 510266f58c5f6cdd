/**
 * A module's evaluation is no step, in the simulation or in a real process (simulator/sandbox/turn.ts
 * asModuleLoad): every module of a journal's bundle is evaluated inside that bracket — the bundle's
 * body when an incarnation loads it, a module loaded later by name (dynamicModules.ts), and the
 * modules esbuild wraps to evaluate on their first require() or import(), whenever that comes (its
 * `__commonJS` and `__esm` helpers call the module's body through LOAD_PARAM, which this rewrite puts
 * in). The bundle is compiled with LOAD_PARAM as one more parameter, bound to `loadBracket`.
 */
import { asModuleLoad } from '../../simulator/sandbox/ambientGuard.js';

/** The parameter a compiled bundle body gets: the bracket its lazily evaluated modules are called through. */
export const LOAD_PARAM = '__durasimLoad';

/** Where esbuild's helpers call a wrapped module's body: `(0, cb[__getOwnPropNames(cb)[0]])(` (esbuild 0.2x). */
const BODY_CALL = /\(0, (fn|cb)\[__getOwnPropNames\(\1\)\[0\]\]\)\(/g;

/** The bundle's code with every lazily evaluated module's body called inside the load bracket. */
export function bracketLazyModules(code: string): string {
  return code.replace(BODY_CALL, `${LOAD_PARAM}($1[__getOwnPropNames($1)[0]])(`);
}

/** What LOAD_PARAM is bound to: the module body `fn`, called inside the load bracket. */
export const loadBracket = (fn: (...args: unknown[]) => unknown) => (...args: unknown[]): unknown => asModuleLoad(() => fn(...args));
