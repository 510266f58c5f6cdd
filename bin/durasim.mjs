#!/usr/bin/env node
// The `durasim` command as npm links it: in a clone it runs the sources (src/bin/durasim.mjs, which
// needs no build: npx durasim works right after npm ci); in the package, the compiled code.
import { existsSync } from 'node:fs';

const sources = new URL('../src/bin/durasim.mjs', import.meta.url);
await import(existsSync(sources) ? sources.href : new URL('../dist/src/bin/durasim.mjs', import.meta.url).href);
