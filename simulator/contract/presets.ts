/**
 * The common shapes of an idempotent API, as contracts to start from (docs/service-contract.md). A
 * project names one (`"preset": "ietf"`) and overrides what differs: its url, its routes, a status.
 * `durasim` is durasim's own protocol (POST /operations/:key; service-protocol.md), which is no
 * contract at all: the service as it always was, its traces unchanged.
 *
 * - ietf: draft-ietf-httpapi-idempotency-key-header-07 — the key in an `Idempotency-Key` header;
 *   400 when it is missing, 422 when a key is reused with another payload, 409 while a request with
 *   the key is still being processed; problem+json error bodies; keys kept 24 hours.
 * - payments: a payment API's way — the key in an `Idempotency-Key` header, a replay answered with
 *   the stored response and flagged by an `Idempotent-Replayed: true` header, a mismatch answered 400
 *   with an error object, a request in progress 409; the payout's id is the receipt, and a GET of
 *   it answers it; keys kept 24 hours.
 * - client-token: a cloud API's way — the key is a `ClientToken` field of the JSON body, the same
 *   token with other parameters is an `IdempotentParameterMismatch` (400); no in-progress answer (a
 *   second request waits for the first's answer); tokens kept 24 hours.
 */
import type { Answer, ServiceContract } from './contract.js';

export const PRESETS = ['durasim', 'ietf', 'payments', 'client-token'] as const;
export type PresetName = (typeof PRESETS)[number];

const DAY_MS = 86_400_000;
const problem = (status: number, type: string, title: string): Answer => ({ status, headers: { 'content-type': 'application/problem+json' }, body: { type: `https://durasim.dev/problems/${type}`, title, status } });

const COMMON = {
  url: 'http://service.durasim',
  notFound: { status: 404, body: { error: 'not_found' } },
  internal: { status: 500, body: { error: 'internal' } },
  states: { committed: 'committed', pending: 'pending' },
  outOfScope: [],
} satisfies Partial<ServiceContract>;

const IETF: ServiceContract = {
  ...COMMON,
  preset: 'ietf',
  effects: [{ method: 'POST', path: '/operations', key: { header: 'Idempotency-Key' }, intent: 'canonical-json' }],
  queries: [{ method: 'GET', path: '/operations/:id', by: 'receipt', receipt: { path: 'id' } }],
  created: { status: 201, body: { id: '{{receipt}}', status: '{{state}}' }, receipt: '/id' },
  replay: { status: 201, body: { id: '{{receipt}}', status: '{{state}}' } },
  mismatch: problem(422, 'idempotency-key-reused', 'The Idempotency-Key was already used with another payload'),
  inFlight: problem(409, 'request-in-progress', 'A request with this Idempotency-Key is still being processed'),
  missingKey: problem(400, 'idempotency-key-missing', 'This operation requires an Idempotency-Key header'),
  invalid: problem(400, 'invalid-argument', 'The request is invalid'),
  revoked: problem(403, 'forbidden', 'The permission for this operation was revoked'),
  unavailable: { ...problem(503, 'unavailable', 'Try again later'), retryAfter: 'seconds' },
  memory: { ttlMs: DAY_MS },
};

const stripeError = (status: number, type: string, message: string, code?: string): Answer => ({ status, body: { error: { type, message, ...(code ? { code } : {}) } } });
const PAYOUT = { id: '{{receipt}}', object: 'payout', status: '{{state}}', amount: '{{request:/amount}}', currency: '{{request:/currency}}', metadata: '{{request:/metadata}}' };

const PAYMENTS: ServiceContract = {
  ...COMMON,
  preset: 'payments',
  effects: [{ method: 'POST', path: '/v1/payouts', key: { header: 'Idempotency-Key' }, intent: 'canonical-json' }],
  queries: [{ method: 'GET', path: '/v1/payouts/:id', by: 'receipt', receipt: { path: 'id' } }],
  created: { status: 200, body: PAYOUT, receipt: '/id' },
  replay: { status: 200, headers: { 'Idempotent-Replayed': 'true' }, body: PAYOUT },
  mismatch: stripeError(400, 'idempotency_error', 'Keys for idempotent requests can only be used with the same parameters they were first used with.'),
  inFlight: stripeError(409, 'idempotency_error', 'There is currently another in-progress request using this Idempotent Key.', 'request_in_progress'),
  missingKey: stripeError(400, 'invalid_request_error', 'This request requires an Idempotency-Key header.'),
  invalid: stripeError(400, 'invalid_request_error', 'Invalid parameters.'),
  revoked: stripeError(403, 'permission_error', 'The API key does not have permission for this request.'),
  unavailable: { ...stripeError(503, 'api_error', 'The service is temporarily unavailable.'), retryAfter: 'seconds' },
  notFound: stripeError(404, 'invalid_request_error', 'No such payout.', 'resource_missing'),
  internal: stripeError(500, 'api_error', 'An error occurred with our connection.'),
  states: { committed: 'paid', pending: 'pending' },
  memory: { ttlMs: DAY_MS },
};

const awsError = (status: number, type: string, message: string): Answer => ({ status, headers: { 'content-type': 'application/x-amz-json-1.1' }, body: { __type: type, message } });

const CLIENT_TOKEN: ServiceContract = {
  ...COMMON,
  preset: 'client-token',
  effects: [{ method: 'POST', path: '/instances', key: { body: '/ClientToken' }, intent: 'canonical-json' }],
  queries: [{ method: 'GET', path: '/instances/:id', by: 'receipt', receipt: { path: 'id' } }],
  created: { status: 200, body: { InstanceId: '{{receipt}}', ClientToken: '{{key}}', State: '{{state}}' }, receipt: '/InstanceId' },
  replay: { status: 200, body: { InstanceId: '{{receipt}}', ClientToken: '{{key}}', State: '{{state}}' } },
  mismatch: awsError(400, 'IdempotentParameterMismatch', 'The client token was already used with other parameters.'),
  inFlight: null,
  missingKey: awsError(400, 'MissingParameter', 'The request must contain the parameter ClientToken.'),
  invalid: awsError(400, 'ValidationException', 'The request is invalid.'),
  revoked: awsError(403, 'AccessDeniedException', 'You are not authorized to perform this operation.'),
  unavailable: { ...awsError(503, 'ServiceUnavailableException', 'The service is unavailable. Try again later.'), retryAfter: 'seconds' },
  notFound: awsError(404, 'ResourceNotFoundException', 'The instance does not exist.'),
  internal: awsError(500, 'InternalFailure', 'The request failed because of an unknown error.'),
  states: { committed: 'running', pending: 'pending' },
  memory: { ttlMs: DAY_MS },
};

/** The preset's contract (a copy); undefined for durasim's own protocol, which is no contract. */
export function presetContract(name: PresetName): ServiceContract | undefined {
  const preset = { durasim: undefined, ietf: IETF, payments: PAYMENTS, 'client-token': CLIENT_TOKEN }[name];
  return preset === undefined ? undefined : structuredClone(preset);
}
