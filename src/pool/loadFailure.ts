/** The error a journal's load in a worker ends with (its module threw, exited, or escaped at its top level): exit 2, or 4 with its escapes. */
import { DurasimError } from '../../model/contract/failure.js';
import type { FromWorker } from './protocol.js';

export function loadFailure(message: Extract<FromWorker, { type: 'load-failed' }>, spec: string | undefined): DurasimError {
  const error = message.failure && message.escapes.length === 0
    ? new DurasimError(message.failure.action, message.failure.reason, message.failure.fix)
    : message.exitCode !== undefined && message.escapes.length === 0
      ? new DurasimError('load the journal', `evaluating ${spec} called process.exit(${message.exitCode}) at its top level, so it exported no journal`, 'Fix the module so it evaluates on its own (a process may exit inside run(), not while its module loads)')
      : new DurasimError('load the journal', `evaluating ${spec} threw ${message.message}`, 'Fix the module so it evaluates on its own');
  return message.escapes.length > 0 ? Object.assign(error, { escapes: message.escapes }) : error;
}
