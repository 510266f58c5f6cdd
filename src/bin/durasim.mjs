#!/usr/bin/env node
// The durasim command. It runs durasim's module graph (graph.mjs: one file, built for the sources
// on first use, or the package's own); where there is none, the compiled modules of the package,
// or the TypeScript sources through tsx.
import { checkNodeSupport } from './nodeSupport.mjs';

// A Node durasim does not run on is said at once, before anything else loads (nodeSupport.mjs).
checkNodeSupport();
const { ownModuleForEntry, tuneCompiler } = await import('./graph.mjs');
const { watchParentShell } = await import('./parentShell.mjs');

tuneCompiler();
// Under `npx durasim`, the signals npm hands to the shell it runs durasim in are passed on here (parentShell.mjs).
watchParentShell();

// Anything left unhandled is durasim's own failure: exit 5, never a finding about the journal.
// (Journals run in worker threads, which report their own uncaught errors as the journal's.)
const harnessFailed = (reason) => {
  // durasim's own failure said with its fix (a file of its package missing: graph.mjs's ownFailure).
  if (reason instanceof Error && reason.ownFailure === true) {
    process.stderr.write(`${reason.message}\n`);
    process.exit(5);
  }
  process.stderr.write(`Failed to finish: durasim itself failed (not a finding about the journal): ${reason instanceof Error ? reason.stack : String(reason)}. Please report it with the command line you ran.\n`);
  process.exit(5);
};
process.on('unhandledRejection', harnessFailed);
process.on('uncaughtException', harnessFailed);
const cli = await ownModuleForEntry('src/cli/main', import.meta.url, '../cli/main');
process.exitCode = await cli.main(process.argv.slice(2));
// durasim's esbuild service (it bundles journals) ends with durasim, not a moment after it: a busy
// machine left it running past durasim's exit, in the process group of whoever ran durasim.
const { createRequire } = await import('node:module');
const esbuild = createRequire(import.meta.url).cache[createRequire(import.meta.url).resolve('esbuild')];
if (esbuild) await Promise.resolve(esbuild.exports.stop()).catch(() => {});
