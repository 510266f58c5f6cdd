#!/usr/bin/env node
// The durasim command: registers tsx so durasim's sources and a user's TypeScript journal load as they are.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
