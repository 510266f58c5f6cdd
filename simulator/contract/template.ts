/**
 * A contract's answer bodies are JSON templates: a string that is exactly `{{name}}` becomes the
 * value (keeping its JSON type: a request's number stays a number), and `{{name}}` inside a longer
 * string becomes its text. A value the request did not carry renders as null (or "" inside text).
 */
import { getAt } from './jsonPointer.js';

export const TEMPLATE_NAMES = ['receipt', 'key', 'digest', 'state', 'retryAfterSeconds', 'retryAfterMs'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export interface TemplateValues {
  values: Partial<Record<TemplateName, string | number>>;
  /** The request's JSON body, for {{request:/pointer}}. */
  request?: unknown;
  /** A record of the journal's own input, for {{item:/pointer}} (a task derived from the user's data). */
  item?: unknown;
}

function valueOf(name: string, given: TemplateValues): unknown {
  if (name.startsWith('request:')) return getAt(given.request, name.slice('request:'.length));
  if (name.startsWith('item:')) return getAt(given.item, name.slice('item:'.length));
  return given.values[name as TemplateName];
}

export function renderTemplate(template: unknown, given: TemplateValues): unknown {
  if (typeof template === 'string') {
    const whole = /^\{\{([^}]*)\}\}$/.exec(template);
    if (whole) return valueOf(whole[1] as string, given) ?? null;
    return template.replace(/\{\{([^}]*)\}\}/g, (_, name: string) => {
      const value = valueOf(name, given);
      return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, given));
  if (typeof template === 'object' && template !== null) return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, renderTemplate(v, given)]));
  return template;
}

/** Whether the template says `{{name}}` anywhere (a fault that mangles a field applies only where the body carries it). */
export function mentions(template: unknown, name: string): boolean {
  return JSON.stringify(template ?? null).includes(`{{${name}`);
}
