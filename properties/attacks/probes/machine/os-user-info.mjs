// Tries: os.userInfo() (user name and home).
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
// Oracle: the real home folder (passed by the runner).
import { userInfo } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-user-info', () => {
  const info = userInfo();
  if (info.homedir === env('ATTACK_REAL_HOME')) leak('os.userInfo', `${info.username} ${info.homedir}`);
});
