// One spare ChatBuilder per tokenizer: an encodeChat takes it (or a new builder when it is in
// use: a getter in the request that encodes again, or another policy) and gives it back when it
// is done, finished or failed. release() empties it and drops the caller's strings and the
// result, so nothing of one request outlives its call here; the arrays of the plan keep their
// room. Measured on the bench's chat pool (embedded Qwen3 tokenizer, raw and chat alternating
// per part in one process, CPU time, 2026-12-02): chat/raw 1.067-1.103 (mean 1.086 over seven
// processes) with a new builder per call, 1.038-1.074 (mean 1.061 over three) with the spare:
// a new builder is some twenty arrays and objects allocated and first touched per call.
import type { SpecialTextPolicy } from "../special-text/policy.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";
import type { TextModel } from "../text-model.ts";
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
