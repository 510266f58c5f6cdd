import { describe, expect, test } from 'vitest';
import { ServiceModel } from './serviceModel.js';

describe('ServiceModel', () => {
  test('one effect per key, replay, 409 on another digest', () => {
    const model = new ServiceModel('durable');
    expect([model.post('a', 'd1'), model.post('a', 'd1'), model.post('a', 'd2')]).toEqual([201, 200, 409]);
    expect(model.effectsFor('a')).toBe(1);
    expect(model.get('a')).toEqual({ status: 200, digest: 'd1' });
  });

  test('volatile memory forgets on restart: a replay is a second effect', () => {
    const model = new ServiceModel('volatile');
    model.post('a', 'd1');
    model.restart();
    expect(model.get('a')).toEqual({ status: 404 });
    expect(model.post('a', 'd1')).toBe(201);
    expect(model.effectsFor('a')).toBe(2);
  });

  test('accepted commits are pending until they land', () => {
    const model = new ServiceModel('durable');
    expect(model.post('a', 'd1', { commit: 'later' })).toBe(202);
    expect(model.get('a')).toEqual({ status: 404 });
    expect(model.landAll()).toBe(1);
    expect(model.get('a')).toEqual({ status: 200, digest: 'd1' });
    expect(model.effectsFor('a')).toBe(1);
  });
});
