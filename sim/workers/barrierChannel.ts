/**
 * A synchronous request/response channel between the main thread and one worker, for the window
 * barriers. comlink (an async postMessage round trip) costs 0.1-0.4 ms per call on a small VM,
 * mostly thread wake-up, and a run has a few thousand barriers; here the payload still travels by
 * structured clone over a MessagePort, but the receiver takes it with `receiveMessageOnPort` when a
 * shared counter says it is there, spinning briefly before it sleeps in `Atomics.wait`.
 *
 * Counters (Int32Array over a SharedArrayBuffer): [REQ] requests posted by the main thread,
 * [RES] responses posted by the worker. One request is in flight at a time.
 */
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';

const REQ = 0;
const RES = 1;

export interface BarrierShared {
  flags: SharedArrayBuffer;
  port: MessagePort;
}

export type BarrierReply<T> = { ok: true; value: T } | { ok: false; error: string };

export function newBarrierFlags(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

/** Spin on `flags[i]` until it differs from `seen`, for up to `spinMs`, then sleep on it up to `sleepMs`. */
function awaitChange(flags: Int32Array, i: number, seen: number, spinMs: number, sleepMs: number): boolean {
  if (Atomics.load(flags, i) !== seen) return true;
  const start = performance.now();
  let n = 0;
  while (Atomics.load(flags, i) === seen) {
    if ((++n & 255) === 0 && performance.now() - start > spinMs) {
      Atomics.wait(flags, i, seen, sleepMs);
      return Atomics.load(flags, i) !== seen;
    }
  }
  return true;
}

/** The main thread's end. */
export class BarrierClient {
  private readonly flags: Int32Array;
  private posted = 0;

  constructor(
    shared: BarrierShared,
    /** Returns why the worker is gone, if it is. */
    private readonly failure: () => Error | null,
    private readonly spinMs = 0.1,
  ) {
    this.flags = new Int32Array(shared.flags);
    this.port = shared.port;
  }

  private readonly port: MessagePort;

  post(request: unknown): void {
    this.port.postMessage(request);
    this.posted++;
    Atomics.store(this.flags, REQ, this.posted);
    Atomics.notify(this.flags, REQ);
  }

  /**
   * The answer to the last request. Waits synchronously for a while (the usual case: the worker is
   * already done), then also yields to the event loop between short waits, so that a worker that
   * died (its 'exit' event) is noticed instead of waiting forever.
   */
  async take<T>(): Promise<T> {
    const want = this.posted;
    if (!awaitChange(this.flags, RES, want - 1, this.spinMs, 50)) {
      while (!awaitChange(this.flags, RES, want - 1, 0, 20)) {
        await new Promise((r) => setImmediate(r));
        const f = this.failure();
        if (f) throw f;
      }
    }
    const m = receiveMessageOnPort(this.port);
    if (m === undefined) throw new Error('barrier channel: a response was signalled but not received');
    const reply = m.message as BarrierReply<T>;
    if (!reply.ok) throw new Error(`sidechain worker: ${reply.error}`);
    return reply.value;
  }
}

/**
 * The worker's end: answer requests until `isLast(request)` is true (that one is answered too).
 * Blocks the worker's event loop meanwhile; all its traffic goes through this channel.
 */
export function serveBarrier(
  shared: BarrierShared,
  handle: (request: unknown) => unknown,
  isLast: (request: unknown) => boolean,
  spinMs = 0,
): void {
  const flags = new Int32Array(shared.flags);
  let seen = 0;
  for (;;) {
    while (!awaitChange(flags, REQ, seen, spinMs, 1000));
    const m = receiveMessageOnPort(shared.port);
    if (m === undefined) throw new Error('barrier channel: a request was signalled but not received');
    seen++;
    let reply: BarrierReply<unknown>;
    try {
      reply = { ok: true, value: handle(m.message) };
    } catch (e) {
      reply = { ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    shared.port.postMessage(reply);
    Atomics.store(flags, RES, seen);
    Atomics.notify(flags, RES);
    if (isLast(m.message)) return;
  }
}
