/**
 * comlink over node:worker_threads: comlink speaks the DOM `postMessage`/`addEventListener` shape,
 * a Node `Worker` or `parentPort` speaks `postMessage`/`on`. (comlink ships this adapter only as
 * UMD; this is the same twenty lines as ESM.)
 */
import { type Transferable } from 'node:worker_threads';
import { type Endpoint } from 'comlink';

export interface NodePort {
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  off(event: 'message', listener: (data: unknown) => void): unknown;
}

type Handler = ((ev: { data: unknown }) => void) | { handleEvent(ev: { data: unknown }): void };

export function nodeEndpoint(port: NodePort): Endpoint {
  const listeners = new WeakMap<object, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: readonly Transferable[]) => port.postMessage(message, transfer),
    addEventListener: (_type: string, handler: Handler) => {
      const l = (data: unknown) => {
        const ev = { data };
        if (typeof handler === 'function') handler(ev);
        else handler.handleEvent(ev);
      };
      port.on('message', l);
      listeners.set(handler, l);
    },
    removeEventListener: (_type: string, handler: Handler) => {
      const l = listeners.get(handler);
      if (!l) return;
      port.off('message', l);
      listeners.delete(handler);
    },
  } as unknown as Endpoint;
}
