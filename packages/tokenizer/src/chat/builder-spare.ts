// One spare ChatBuilder per tokenizer: an encodeChat takes it (or a new builder when it is in
// use: a getter in the request that encodes again, or another policy) and gives it back when it
// is done, finished or failed. release() empties it and drops the caller's strings and the
// result, so nothing of one request outlives its call here; the arrays of the plan keep their
// room, so a call allocates and first-touches no new builder (some twenty arrays and objects).

import type { TextModel } from "../models/text-model.ts";
import type { SpecialTextPolicy } from "../special-text/policy.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";
import { ChatBuilder } from "./builder.ts";

export class BuilderSpare {
  private spare: ChatBuilder | undefined;

  constructor(
    private readonly model: TextModel,
    private readonly scanner: SpecialScanner,
  ) {}

  /** A builder for one encoding: the spare one when it is free and has this policy, else a new one. */
  take(policy: SpecialTextPolicy): ChatBuilder {
    const b = this.spare;
    if (b !== undefined && b.policy === policy) {
      this.spare = undefined;
      return b;
    }
    return new ChatBuilder(this.model, this.scanner, policy);
  }

  /** Takes `b` back once its encoding is over (its result already handed out, or an error thrown). */
  give(b: ChatBuilder): void {
    b.release();
    this.spare = b;
  }
}
