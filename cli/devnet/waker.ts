/**
 * The devnet loop's wait: until something wakes it (an input, a command, a stop) or a wall-time
 * timeout passes. One waiter at a time (the loop).
 */
export class Waker {
  private wakeUp: (() => void) | null = null;

  wait(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      const done = () => {
        if (timer) clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    this.wakeUp?.();
  }
}
