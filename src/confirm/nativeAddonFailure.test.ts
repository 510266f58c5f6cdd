/** The words of "cannot confirm" when a real worker cannot load the native addon (nativeAddonFailure.ts), from Node's own errors. */
import { expect, test } from 'vitest';
import { DurasimError } from '../../model/contract/failure.js';
import { nativeAddonFailure } from './nativeAddonFailure.js';

const BINARY = '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node';
/** Node 22's words for a binary npm ci built on Node 20 (seen on v22.23.5). */
const abiError = (built: number, required: number): Error =>
  new Error(`The module '${BINARY}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${built}. This version of Node.js requires\nNODE_MODULE_VERSION ${required}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`);

test('a binary built for another ABI: the module, the binary and its Node, this Node and its ABI, and the fix', () => {
  const error = nativeAddonFailure('better-sqlite3', abiError(115, 127), { version: 'v22.23.5', modules: '127' });
  expect(error).toBeInstanceOf(DurasimError);
  expect(error.message).toBe(`Failed to load the native better-sqlite3 in confirm's real worker: its binary ${BINARY} was built for Node 20 (NODE_MODULE_VERSION 115), and this Node, v22.23.5, needs NODE_MODULE_VERSION 127: no real process can open the journal's database, so the finding is neither confirmed nor refuted. Run \`npm rebuild better-sqlite3\` with this Node (or confirm with Node 20), then confirm again.`);
});

test('an ABI number no Node line durasim knows: the number alone', () => {
  const error = nativeAddonFailure('better-sqlite3', abiError(999, 137), { version: 'v24.22.3', modules: '137' });
  expect(error.message).toBe(`Failed to load the native better-sqlite3 in confirm's real worker: its binary ${BINARY} was built for NODE_MODULE_VERSION 999, and this Node, v24.22.3, needs NODE_MODULE_VERSION 137: no real process can open the journal's database, so the finding is neither confirmed nor refuted. Run \`npm rebuild better-sqlite3\` with this Node (or confirm with the Node it was built for), then confirm again.`);
});

test('any other load failure: Node\'s first line, this Node and its ABI, and the fix', () => {
  const error = nativeAddonFailure('better-sqlite3', new Error(`${BINARY}: invalid ELF header`), { version: 'v20.20.2', modules: '115' });
  expect(error.message).toBe(`Failed to load the native better-sqlite3 in confirm's real worker: it does not load on this Node, v20.20.2 (NODE_MODULE_VERSION 115): ${BINARY}: invalid ELF header; no real process can open the journal's database, so the finding is neither confirmed nor refuted. Run \`npm rebuild better-sqlite3\` with this Node, then confirm again.`);
});
