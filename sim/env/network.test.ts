import { describe, expect, it } from 'vitest';
import { Engine } from '../engine/engine';
import { NET_DELIVER, Network } from './network';
import { Rng } from './rng';

function net() {
  const engine = new Engine(null);
  const delivered: string[] = [];
  engine.on<string>(NET_DELIVER, (ev) => void delivered.push(`${ev.source}>${ev.target}:${ev.payload}`));
  const network = new Network(engine, Rng.forSeed(1));
  const reconnects: string[] = [];
  network.onReconnect = (a, b) => void reconnects.push(`${a}+${b}`);
  return { engine, network, delivered, reconnects };
}

describe('network', () => {
  it('multicasts to the peers of a mask, in peer order, with the draws a send to each would make', () => {
    const a = net();
    a.network.multicast('x', ['p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'y'], 'm', new Uint8Array([0b1000_0101, 0b1]));
    a.engine.run();
    const b = net();
    for (const to of ['p', 'r', 'w', 'y']) b.network.send('x', to, 'm');
    b.engine.run();
    expect(a.delivered.sort()).toEqual(['x>p:m', 'x>r:m', 'x>w:m', 'x>y:m']);
    expect(a.engine.nowMs()).toBe(b.engine.nowMs());
    expect(a.network.stats).toEqual(b.network.stats);
  });

  it('tells when a pair can reach each other both ways again: each pair once, smaller id first, in order', () => {
    const { network, reconnects } = net();
    network.partition(['b', 'a'], ['c', 'd']);
    network.unpartition(['b', 'a'], ['c']);
    expect(reconnects).toEqual(['a+c', 'b+c']);
    // One way still cut: not yet.
    network.partition(['a'], ['e'], true);
    network.partition(['e'], ['a'], true);
    network.unpartition(['a'], ['e'], true);
    expect(reconnects).toEqual(['a+c', 'b+c']);
    network.unpartition(['e'], ['a'], true);
    expect(reconnects).toEqual(['a+c', 'b+c', 'a+e']);
    // Never cut: nothing to reconnect.
    network.unpartition(['a'], ['z']);
    expect(reconnects).toHaveLength(3);
    network.partition(['z'], ['y'], true);
    network.healAll();
    expect(reconnects).toEqual(['a+c', 'b+c', 'a+e', 'a+d', 'b+d', 'y+z']);
  });
});
