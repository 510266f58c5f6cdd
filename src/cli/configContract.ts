/**
 * A scenario file replayed or confirmed where durasim.config.json (or --config) says the worker speaks its own API
 * (`service`, docs/service-contract.md): a scenario that names its contract keeps it (a saved finding replays the
 * same forever); one that names none — a task written by hand, as check's --task is — is run against the config's,
 * as check and explore run theirs, and a line says so. Else its requests would reach durasim's own protocol, and a
 * correct worker would read as breaking routed-requests.
 */
import type { ServiceContract } from '../../simulator/contract/contract.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';

export function withConfigContract(scenario: Scenario, contract: ServiceContract | undefined, configFile: string | undefined): { scenario: Scenario; line?: string } {
  if (contract === undefined || scenario.service.contract !== undefined) return { scenario };
  const from = `${configFile ?? 'durasim.config.json'}${contract.preset ? `, from the ${contract.preset} preset` : ''}`;
  return {
    scenario: { ...scenario, service: { ...scenario.service, contract } },
    line: `service ${contract.url} (the contract of ${from}: the scenario names none)`,
  };
}
