// One spare ChatBuilder per tokenizer: an encodeChat takes it (or a new builder when it is in
// use: a getter in the request that encodes again, or another policy) and gives it back when it
// is done, finished or failed. release() empties it and drops the caller's strings and the
// result, so nothing of one request outlives its call here; the arrays of the plan keep their
// room. Measured (embedded Qwen3 tokenizer, the bench's chat pool, 2026-12-02): a new builder
// per call is some twenty arrays and objects allocated and first touched; with the spare, a
// chat-only process over the pool ran 39 scavenges instead of 42-43 (the raw encoder alone: 35).
// Time: in a two-instance harness (raw and chat alternating per part in one process, CPU time)
// chat/raw went from 1.067-1.103 (mean 1.085, fourteen processes) to 1.059-1.084 (mean 1.068,
// seven); in the bench's own worker (encode-ours.ts, five processes each) 1.074-1.093 (mean
// 1.082) against 1.071-1.091 (mean 1.081): no difference that harness resolves.
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
