/**
 * A DynamoDB-like table over env.store, for a library written against conditional writes:
 * PutItem with attribute_not_exists(pk) or an optimistic-locking version check, GetItem, and Query
 * by key prefix. ConditionalCheckFailedException is thrown as DynamoDB's SDK throws it.
 */
import type { Store } from 'durasim';

export class ConditionalCheckFailedException extends Error {
  override readonly name = 'ConditionalCheckFailedException';
}

export interface Item {
  pk: string;
  /** The store's version of the item: what optimistic locking compares. */
  version: number;
  data: Record<string, unknown>;
}

export function dynamoLike(store: Store) {
  return {
    /** PutItem. `condition`: 'attribute_not_exists(pk)', or { version } for `version = :v`. */
    async putItem(pk: string, data: Record<string, unknown>, condition?: 'attribute_not_exists(pk)' | { version: number }): Promise<Item> {
      const options = condition === 'attribute_not_exists(pk)' ? { ifAbsent: true } : condition ? { ifVersion: condition.version } : {};
      const written = await store.put(pk, JSON.stringify(data), options);
      if (!written.ok) throw new ConditionalCheckFailedException(`The conditional request failed (${pk})`);
      return { pk, version: written.version, data };
    },
    async getItem(pk: string): Promise<Item | undefined> {
      const entry = await store.get(pk);
      return entry ? { pk, version: entry.version, data: JSON.parse(entry.value) as Record<string, unknown> } : undefined;
    },
    /** Query on a key prefix (a partition's sort keys), in key order. */
    async query(prefix: string): Promise<Item[]> {
      return (await store.list(prefix)).map((e) => ({ pk: e.key, version: e.version, data: JSON.parse(e.value) as Record<string, unknown> }));
    },
  };
}
