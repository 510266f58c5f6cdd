/**
 * The service's face when a scenario carries a contract (contract/contract.ts): the core decides
 * what happens in its own terms (created, a replay, a conflict, a failure class; its faults), and
 * this renders it as the contract's status, headers and body. Faults that mangle a receipt do so
 * where the contract's body carries it: an emptied receipt at the receipt's pointer, a wrong key or
 * digest where the body echoes them (and the request's own fields it echoes), a pending state where
 * it says `{{state}}`; a body that carries none of those is left as it is.
 */
import type { AnswerKind, ServiceContract } from '../contract/contract.js';
import { getAt, pointerTokens, setAt } from '../contract/jsonPointer.js';
import { mentions, renderTemplate, type TemplateValues } from '../contract/template.js';
import type { ResponseFaultKind } from '../scenario/scenarioFaults.js';

export interface Rendered {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the core knows of an answer: the fields today's protocol carries. */
export interface AnswerFacts {
  key?: string;
  digest?: string;
  receipt?: string;
  state?: 'committed' | 'pending';
  retryAfterMs?: number;
  /** The Retry-After date the wire says (an http-date contract). */
  retryAfterDate?: string;
  /** The request's JSON body (the created body may echo it), or the stored one of the effect answered. */
  request?: unknown;
}

const JSON_TYPE = 'application/json';

/** A different value of the same JSON type: what a wrong-digest fault puts where the body echoes a request field. */
function otherValue(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return `${value}-other`;
  if (typeof value === 'boolean') return !value;
  return 'other';
}

export class ContractFace {
  constructor(readonly contract: ServiceContract) {}

  /** The contract's answer of this kind for these facts; `list` wraps created bodies in a list at that pointer. */
  render(kind: AnswerKind, facts: AnswerFacts, fault: ResponseFaultKind | undefined, status?: number): Rendered {
    const answer = kind === 'inFlight' ? (this.contract.inFlight ?? this.contract.created) : this.contract[kind];
    const { body, values } = this.bodyOf(kind, facts, fault);
    const headers: Record<string, string> = { 'content-type': JSON_TYPE, ...lowerCased(answer.headers) };
    if (kind === 'unavailable' && facts.retryAfterMs !== undefined) {
      const after = this.contract.unavailable.retryAfter;
      if (after === 'seconds') headers['retry-after'] = String(values.retryAfterSeconds);
      if (after === 'http-date' && facts.retryAfterDate !== undefined) headers['retry-after'] = facts.retryAfterDate;
    }
    return { status: status ?? answer.status, headers, body: body === undefined ? '' : JSON.stringify(body) };
  }

  /** A list answer (a query by filter, or any query route with `list`): the created bodies of `items` at the pointer. */
  renderList(pointer: string, items: readonly AnswerFacts[], fault: ResponseFaultKind | undefined): Rendered {
    const bodies = items.map((facts) => this.bodyOf('created', facts, fault).body);
    const tokens = pointerTokens(pointer) ?? [];
    let body: unknown = bodies;
    for (const token of [...tokens].reverse()) body = { [token]: body };
    return { status: 200, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body) };
  }

  /** The wait a retry-after answer asks for, as the wire says it (whole seconds, or a date to the second): at least `ms`. */
  retryAfterAsked(ms: number, nowEpochMs: number): { ms: number; seconds: number; date: string } {
    const seconds = Math.ceil(ms / 1000);
    const at = Math.ceil((nowEpochMs + ms) / 1000) * 1000;
    const after = this.contract.unavailable.retryAfter;
    const asked = after === 'http-date' ? at - nowEpochMs : after === 'seconds' ? seconds * 1000 : ms;
    return { ms: asked, seconds, date: new Date(at).toUTCString() }; // allow-ambient: a date of virtual time (at), not the real clock
  }

  private bodyOf(kind: AnswerKind, facts: AnswerFacts, fault: ResponseFaultKind | undefined): { body: unknown; values: Record<string, string | number> } {
    const carriesReceipt = kind === 'created' || kind === 'replay' || kind === 'inFlight';
    const template = kind === 'inFlight' && this.contract.inFlight === null ? this.contract.created.body : kind === 'replay' ? (this.contract.replay.body ?? this.contract.created.body) : (this.contract[kind] as { body?: unknown } | null)?.body;
    const mangle = carriesReceipt && facts.state === 'committed' ? fault : undefined;
    const state = mangle === 'pending-state' ? 'pending' : (facts.state ?? 'committed');
    const values: Record<string, string | number> = {
      ...(facts.key !== undefined ? { key: mangle === 'wrong-key' && mentions(template, 'key') ? `not-${facts.key}` : facts.key } : {}),
      ...(facts.digest !== undefined ? { digest: mangle === 'wrong-digest' ? '0'.repeat(64) : facts.digest } : {}),
      ...(facts.receipt !== undefined ? { receipt: facts.receipt } : {}),
      state: this.contract.states[state],
    };
    if (facts.retryAfterMs !== undefined) {
      values.retryAfterMs = facts.retryAfterMs;
      values.retryAfterSeconds = Math.ceil(facts.retryAfterMs / 1000);
    }
    let request = facts.request;
    // A wrong digest where the body echoes no digest: the first request field it echoes comes back changed.
    if (mangle === 'wrong-digest' && !mentions(template, 'digest')) {
      const echoed = /\{\{request:([^}]*)\}\}/.exec(JSON.stringify(template ?? null))?.[1];
      if (echoed !== undefined && getAt(request, echoed) !== undefined) request = setAt(request, echoed, otherValue(getAt(request, echoed)));
    }
    const given: TemplateValues = { values, request };
    let body = template === undefined ? undefined : renderTemplate(template, given);
    if (mangle === 'empty-receipt' && carriesReceipt) body = setAt(body, this.contract.created.receipt, '');
    return { body, values };
  }
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}
