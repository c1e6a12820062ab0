// The misuse errors of Decoder.push (types.ts), shared by the engine's checked path, the reference
// engine and the template turn layer.

/** Throws the TypeError push() gives after end() or for an ID that is not an integer. */
export function checkPush(ended: boolean, id: unknown): void {
  if (ended) throw new TypeError("push() after end(); call reset() to decode another stream");
  if (typeof id !== "number" || !Number.isInteger(id))
    throw new TypeError(`token id must be an integer, got ${String(id)}`);
}
