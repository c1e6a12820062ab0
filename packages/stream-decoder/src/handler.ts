// The caller's DecoderHandler, every callback optional. The decoder calls a handler that has
// all nine core callbacks (onMessageStart .. onError) through; any other handler, whatever it
// lacks, goes behind ONE wrapper class with no-op defaults, so the decoder's call sites see
// at most two shapes (the caller's own, and this class) and never test `?.` per event.
//
// Why a complete handler is not wrapped too: the caller's callback can be inlined into push()
// only when it is loaded from the caller's own object; through the wrapper's fields it is an
// indirect call.
//
// Which callbacks exist is decided once, at createDecoder(); the wrapper also reads them then.
// Either way they are called with the caller's object as `this`.
import type { ActionEnd, DecoderError, DecoderHandler, MessageHeader, StopInfo } from "./events.ts";

function noop(): void {}

function callback<K extends keyof DecoderHandler>(h: DecoderHandler, key: K): NonNullable<DecoderHandler[K]> {
  const f = h[key];
  if (f === undefined) return noop as NonNullable<DecoderHandler[K]>;
  if (typeof f !== "function") throw new TypeError(`handler.${key} must be a function`);
  return f as NonNullable<DecoderHandler[K]>;
}

/** The callbacks the decoder calls unconditionally. */
const CORE = [
  "onMessageStart",
  "onText",
  "onReasoning",
  "onActionStart",
  "onActionText",
  "onActionEnd",
  "onMessageEnd",
  "onStop",
  "onError",
] as const;
const ALL: readonly (keyof DecoderHandler)[] = [...CORE, "onToolCallName", "onToolCallArguments"];

/** A handler with every core callback present (onToolCallName / onToolCallArguments may lack). */
export type CoreHandler = Required<Pick<DecoderHandler, (typeof CORE)[number]>> & DecoderHandler;

/**
 * `handler` itself when it has every core callback, else a CompleteHandler around it. A
 * callback that is present but not a function, or a handler that is not an object, is a
 * TypeError (caller misuse, at createDecoder()).
 */
export function coreHandler(handler: DecoderHandler): CoreHandler {
  if (typeof handler !== "object" || handler === null) throw new TypeError("handler must be an object");
  // The common case in named loads (cheaper than a loop of keyed loads at every createDecoder()).
  const h = handler;
  if (
    typeof h.onMessageStart === "function" &&
    typeof h.onText === "function" &&
    typeof h.onReasoning === "function" &&
    typeof h.onActionStart === "function" &&
    typeof h.onActionText === "function" &&
    typeof h.onActionEnd === "function" &&
    typeof h.onMessageEnd === "function" &&
    typeof h.onStop === "function" &&
    typeof h.onError === "function" &&
    (h.onToolCallName === undefined || typeof h.onToolCallName === "function") &&
    (h.onToolCallArguments === undefined || typeof h.onToolCallArguments === "function")
  )
    return h as CoreHandler;
  for (const key of ALL) {
    const f = handler[key];
    if (f !== undefined && typeof f !== "function") throw new TypeError(`handler.${key} must be a function`);
  }
  return new CompleteHandler(handler);
}

/** Every callback of a handler that lacks some, missing ones as a shared no-op. */
export class CompleteHandler implements Required<DecoderHandler> {
  private readonly target: DecoderHandler;
  private readonly messageStart: NonNullable<DecoderHandler["onMessageStart"]>;
  private readonly text: NonNullable<DecoderHandler["onText"]>;
  private readonly reasoning: NonNullable<DecoderHandler["onReasoning"]>;
  private readonly actionStart: NonNullable<DecoderHandler["onActionStart"]>;
  private readonly actionText: NonNullable<DecoderHandler["onActionText"]>;
  private readonly actionEnd: NonNullable<DecoderHandler["onActionEnd"]>;
  private readonly messageEnd: NonNullable<DecoderHandler["onMessageEnd"]>;
  private readonly stop: NonNullable<DecoderHandler["onStop"]>;
  private readonly err: NonNullable<DecoderHandler["onError"]>;
  private readonly toolCallName: NonNullable<DecoderHandler["onToolCallName"]>;
  private readonly toolCallArguments: NonNullable<DecoderHandler["onToolCallArguments"]>;

  constructor(handler: DecoderHandler) {
    this.target = handler;
    this.messageStart = callback(handler, "onMessageStart");
    this.text = callback(handler, "onText");
    this.reasoning = callback(handler, "onReasoning");
    this.actionStart = callback(handler, "onActionStart");
    this.actionText = callback(handler, "onActionText");
    this.actionEnd = callback(handler, "onActionEnd");
    this.messageEnd = callback(handler, "onMessageEnd");
    this.stop = callback(handler, "onStop");
    this.err = callback(handler, "onError");
    this.toolCallName = callback(handler, "onToolCallName");
    this.toolCallArguments = callback(handler, "onToolCallArguments");
  }

  onMessageStart(role: string, metadata: string, header?: MessageHeader): void {
    this.messageStart.call(this.target, role, metadata, header);
  }
  onText(text: string): void {
    this.text.call(this.target, text);
  }
  onReasoning(text: string): void {
    this.reasoning.call(this.target, text);
  }
  onActionStart(kind: string): void {
    this.actionStart.call(this.target, kind);
  }
  onActionText(text: string): void {
    this.actionText.call(this.target, text);
  }
  onActionEnd(end: ActionEnd): void {
    this.actionEnd.call(this.target, end);
  }
  onMessageEnd(): void {
    this.messageEnd.call(this.target);
  }
  onStop(stop: StopInfo): void {
    this.stop.call(this.target, stop);
  }
  onError(error: DecoderError): void {
    this.err.call(this.target, error);
  }
  onToolCallName(name: string): void {
    this.toolCallName.call(this.target, name);
  }
  onToolCallArguments(text: string): void {
    this.toolCallArguments.call(this.target, text);
  }
}
