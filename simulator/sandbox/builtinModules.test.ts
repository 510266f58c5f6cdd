/**
 * Every Node builtin module is named in BUILTIN_MODULES: served, refused or pure. A Node that adds
 * one fails here until it is judged. What is served or refused is guarded (guardModules.ts), by the
 * module's own name: a module reached under another name (http's client as _http_client) is no way
 * around the sandbox.
 */
import { builtinModules } from 'node:module';
import { expect, test } from 'vitest';
import { BUILTIN_MODULES } from './builtinModules.js';
import { MODULE_GUARDS } from './guardModules.js';

/** Served by guards of their own rather than by a module guard: the process object. */
const GUARDED_ELSEWHERE = new Set(['process']);

test('every builtin module of this Node is named: served, refused or pure', () => {
  // Node 24 lists the modules that exist only under the node: scheme with it (node:sqlite, node:sea, node:test).
  const unnamed = [...builtinModules, 'test'].map((name) => name.replace(/^node:/, '')).filter((name) => !(name in BUILTIN_MODULES));
  expect(unnamed).toEqual([]);
});

test('every served or refused module is guarded by its own name', () => {
  const guarded = new Set(MODULE_GUARDS.map((guard) => guard.module));
  const unguarded = Object.entries(BUILTIN_MODULES).filter(([name, { use }]) => use !== 'pure' && !guarded.has(name) && !GUARDED_ELSEWHERE.has(name)).map(([name]) => name);
  expect(unguarded).toEqual([]);
});

test('a refused module is guarded whole: every function and class it exports', () => {
  const partial = MODULE_GUARDS.filter((guard) => BUILTIN_MODULES[guard.module]?.use === 'refused' && guard.only !== undefined).map((guard) => guard.module);
  expect(partial).toEqual([]);
});

test('no pure module is guarded', () => {
  expect(MODULE_GUARDS.filter((guard) => BUILTIN_MODULES[guard.module]?.use === 'pure').map((guard) => guard.module)).toEqual([]);
});
