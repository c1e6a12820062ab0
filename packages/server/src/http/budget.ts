// One byte budget shared by every request that holds body bytes without a generation slot (being
// read, parsed, or waiting in the queue): slow or queued requests together can hold at most
// `max` body bytes, whatever their number. A request's lease grows as its body arrives and is
// given back once, when the request gets a slot (the slot count bounds it from then on) or ends.

export interface Lease {
  /** Adds n bytes to the lease; false (and nothing added) when the budget cannot cover them. */
  take(n: number): boolean;
  /** Gives every byte of the lease back (idempotent). */
  release(): void;
}

export class ByteBudget {
  private used = 0;

  constructor(private readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new TypeError("max must be an integer >= 1");
  }

  get held(): number {
    return this.used;
  }

  lease(): Lease {
    let mine = 0;
    let released = false;
    return {
      take: (n) => {
        if (released || this.used + n > this.max) return false;
        this.used += n;
        mine += n;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.used -= mine;
        mine = 0;
      },
    };
  }
}
