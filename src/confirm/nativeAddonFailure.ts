/**
 * A native addon a confirmation's real worker could not load (better-sqlite3's binary on a Node
 * whose ABI it was not built for: CI's Node 22 and 24 after `npm ci` on Node 20, or a user who
 * switched Node with nvm without rebuilding). No real process could open the journal's database,
 * so nothing about the finding is learnt: the label is "cannot confirm", naming the module, the
 * binary's ABI against this Node's, and the fix — never "not reproduced" or "diverged", which would
 * tell the user the finding may be false. The real worker tries the load at its boot, before the
 * journal's first step (realWorker.ts), and the parent stops the run there (realRun.ts).
 */
import { DurasimError } from '../../model/contract/failure.js';

/** NODE_MODULE_VERSION → Node's major version, for the lines a user meets (Node's doc/abi_version_registry.json). */
const NODE_OF_ABI: Readonly<Record<string, string>> = { '108': '18', '111': '19', '115': '20', '120': '21', '127': '22', '131': '23', '137': '24', '141': '25' };

const nodeOfAbi = (abi: string): string => (NODE_OF_ABI[abi] === undefined ? `NODE_MODULE_VERSION ${abi}` : `Node ${NODE_OF_ABI[abi]} (NODE_MODULE_VERSION ${abi})`);

/** Thrown by runForReal when a real worker could not load a native addon; confirmScenario makes it "cannot confirm". */
export class NativeAddonUnloadable extends DurasimError {}

/** Node's words when a binary was built for another ABI (node_binding.cc), with the binary's path and both numbers. */
const ABI_MISMATCH = /^The module '([^']+)'\s+was compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)\./;

/** The error for `module` failing to load in a real worker with `error`, on the Node `node` (this one by default). */
export function nativeAddonFailure(module: string, error: { message: string }, node: { version: string; modules: string } = { version: process.version, modules: process.versions.modules }): NativeAddonUnloadable {
  const action = `load the native ${module} in confirm's real worker`;
  const consequence = "no real process can open the journal's database, so the finding is neither confirmed nor refuted";
  const abi = ABI_MISMATCH.exec(error.message);
  if (abi) {
    const [, binary, built, required] = abi as unknown as [string, string, string, string];
    const builtFor = NODE_OF_ABI[built] === undefined ? 'the Node it was built for' : `Node ${NODE_OF_ABI[built]}`;
    return new NativeAddonUnloadable(
      action,
      `its binary ${binary} was built for ${nodeOfAbi(built)}, and this Node, ${node.version}, needs NODE_MODULE_VERSION ${required}: ${consequence}`,
      `Run \`npm rebuild ${module}\` with this Node (or confirm with ${builtFor}), then confirm again`,
    );
  }
  const first = error.message.split('\n')[0]?.trim() ?? '';
  return new NativeAddonUnloadable(
    action,
    `it does not load on this Node, ${node.version} (NODE_MODULE_VERSION ${node.modules}): ${first.replace(/\.+$/, '')}; ${consequence}`,
    `Run \`npm rebuild ${module}\` with this Node, then confirm again`,
  );
}
