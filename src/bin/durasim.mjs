#!/usr/bin/env node
// The durasim command. From the compiled package (dist/) it runs as plain JavaScript; from the
// TypeScript sources (a clone of the repository) it registers tsx first.
import { existsSync } from 'node:fs';

// Anything left unhandled is durasim's own failure: exit 5, never a finding about the journal.
// (Journals run in worker threads, which report their own uncaught errors as the journal's.)
const harnessFailed = (reason) => {
  process.stderr.write(`durasim failed: ${reason instanceof Error ? reason.stack : String(reason)}. Please report it with the command line you ran.\n`);
  process.exit(5);
};
process.on('unhandledRejection', harnessFailed);
process.on('uncaughtException', harnessFailed);
const compiled = new URL('../cli/main.js', import.meta.url);
let cli;
if (existsSync(compiled)) {
  cli = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../cli/main.ts');
}
process.exitCode = await cli.main(process.argv.slice(2));
