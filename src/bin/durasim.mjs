#!/usr/bin/env node
// The durasim command: registers tsx so durasim's sources and a user's TypeScript journal load as they are.
import { register } from 'tsx/esm/api';

register();
// Anything left unhandled is durasim's own failure: exit 5, never a finding about the journal.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`durasim failed: ${reason instanceof Error ? reason.stack : String(reason)}. Please report it with the command line you ran.\n`);
  process.exit(5);
});
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
