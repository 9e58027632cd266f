/**
 * At most `slots` holders at a time; the others wait in arrival order. `acquire` resolves to a release function
 * (calling it twice releases once) or to null when no slot freed up within `waitMs`.
 */
export class Semaphore {
  private used = 0;
  private readonly waiting: Array<(release: () => void) => void> = [];

  constructor(readonly slots: number) {}

  get inUse(): number {
    return this.used;
  }

  acquire(waitMs: number): Promise<(() => void) | null> {
    if (this.used < this.slots) {
      this.used += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const grant = (release: () => void) => {
        clearTimeout(timer);
        resolve(release);
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(grant);
        if (at !== -1) this.waiting.splice(at, 1);
        resolve(null);
      }, waitMs);
      this.waiting.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `used` stays the same.
      if (next) next(this.releaser());
      else this.used -= 1;
    };
  }
}
