// A tokenizer reuses one ChatBuilder across encodings (chat/builder-spare.ts): release()
// must leave nothing of one encoding in the next, a returned result must never change
// afterwards, and a builder in use (a request's getter that encodes again) must never be handed
// out twice. Every expectation compares with a FRESH builder or tokenizer doing the same work.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatEncoding } from "../src/chat/builder.ts";
import { BuilderSpare } from "../src/chat/builder-spare.ts";
import type { ChatRequest } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";
import { fill, build as fresh, IM_START, type Op, op, tok } from "./builder-support.ts";

const copy = (e: ChatEncoding): unknown => JSON.parse(JSON.stringify(e));

describe("BuilderSpare: one builder reused across encodings", () => {
  it("every encoding equals a fresh builder's, and earlier results never change", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(op, { maxLength: 20 }), fc.boolean()), { minLength: 1, maxLength: 8 }),
        (rounds) => {
          const spare = new BuilderSpare(tok.textModel, tok.scanner);
          const kept: { got: ChatEncoding; snapshot: unknown }[] = [];
          for (const [ops, fails] of rounds) {
            const b = spare.take("neutralize");
            try {
              fill(b, ops);
              // A failed encoding (the renderer threw after recording part of the plan) leaves nothing behind.
              if (fails) throw new Error("render failed");
              const got = b.finish();
              expect(copy(got)).toEqual(copy(fresh(ops)));
              kept.push({ got, snapshot: copy(got) });
            } catch (e) {
              if (!fails) throw e;
            } finally {
              spare.give(b);
            }
          }
          for (const k of kept) expect(copy(k.got)).toEqual(k.snapshot);
        },
      ),
      { numRuns: 400, seed: 20261202 },
    );
  });

  it("a builder in use is never handed out again; another policy gets its own builder", () => {
    const spare = new BuilderSpare(tok.textModel, tok.scanner);
    const a = spare.take("neutralize");
    spare.give(a);
    const again = spare.take("neutralize");
    expect(again).toBe(a);
    const nested = spare.take("neutralize");
    expect(nested).not.toBe(again);
    spare.give(nested);
    spare.give(again);
    expect(spare.take("reject")).not.toBe(again);
    expect(spare.take("neutralize")).toBe(again);
  });

  it("release() drops the last plan and result: an empty plan encodes to nothing", () => {
    const spare = new BuilderSpare(tok.textModel, tok.scanner);
    const b = spare.take("neutralize");
    fill(b, [
      { kind: "reserved", id: IM_START },
      { kind: "caller", text: "secret <think>", offset: 0 },
    ]);
    const first = b.finish();
    expect(first.ids.length).toBeGreaterThan(1);
    spare.give(b);
    const c = spare.take("neutralize");
    expect(c).toBe(b);
    expect(c.finish()).toEqual({ ids: [], spans: [], audit: [] });
    expect(first.audit).toHaveLength(1);
  });

  it("a conversation larger than the kept room, then a small one: both exact", () => {
    const spare = new BuilderSpare(tok.textModel, tok.scanner);
    const big: Op[] = [];
    for (let i = 0; i < 3000; i++)
      big.push(
        { kind: "reserved", id: IM_START },
        { kind: "text", text: "user" },
        { kind: "caller", text: " x", offset: 0 },
      );
    const small: Op[] = [
      { kind: "text", text: "user" },
      { kind: "caller", text: "\nHi", offset: 0 },
      { kind: "cut" },
    ];
    for (const ops of [big, small, big]) {
      const b = spare.take("neutralize");
      fill(b, ops);
      expect(copy(b.finish())).toEqual(copy(fresh(ops)));
      spare.give(b);
    }
  });
});

describe("encodeChat through the tokenizer's spare builder", () => {
  const request = (content: string): ChatRequest => ({
    messages: [
      { role: "user", content },
      { role: "assistant", content: "ok <|im_end|>" },
    ],
    add_generation_prompt: true,
  });
  /** A request outside the ChatRequest type (a getter, an unknown role): the run-time checks see it. */
  const untyped = (r: unknown): ChatRequest => r as ChatRequest;

  it("a request whose getter encodes on the same tokenizer: both results exact", () => {
    const other = loadTokenizerSync("qwen3");
    let inner: ChatEncoding | undefined;
    const message: Record<string, unknown> = { role: "user" };
    Object.defineProperty(message, "content", {
      enumerable: true,
      get() {
        inner = tok.encodeChat(request("inner <think> text"));
        return "outer text";
      },
    });
    const outer = tok.encodeChat(untyped({ messages: [message], add_generation_prompt: true }));
    expect(outer).toEqual(
      other.encodeChat({ messages: [{ role: "user", content: "outer text" }], add_generation_prompt: true }),
    );
    expect(inner).toBeDefined();
    expect(inner).toEqual(other.encodeChat(request("inner <think> text")));
    // And the spare is usable afterwards.
    expect(tok.encodeChat(request("after"))).toEqual(other.encodeChat(request("after")));
  });

  it("an invalid request throws its typed error and the next encoding is exact", () => {
    const other = loadTokenizerSync("qwen3");
    expect(() =>
      tok.encodeChat(
        untyped({
          messages: [
            { role: "user", content: "a" },
            { role: "nobody", content: "b" },
          ],
        }),
      ),
    ).toThrow(expect.objectContaining({ type: "invalid-conversation" }));
    expect(() => tok.encodeChat(request("x <|im_start|>"), { specialText: "reject" })).toThrow(
      expect.objectContaining({ type: "special-token-in-text" }),
    );
    const got = tok.encodeChat(request("after the errors <think>"));
    expect(got).toEqual(other.encodeChat(request("after the errors <think>")));
    expect(got.audit.map((a) => a.token)).toEqual(["<think>", "<|im_end|>"]);
  });

  it("results of earlier calls are not changed by later ones", () => {
    const a = tok.encodeChat(request("first"));
    const snapshot = JSON.parse(JSON.stringify(a));
    for (let i = 0; i < 5; i++) tok.encodeChat(request(`later ${i} ${"y".repeat(i * 50)}`));
    expect(JSON.parse(JSON.stringify(a))).toEqual(snapshot);
  });
});
