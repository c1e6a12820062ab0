// The error of the Python literal parser (./python-literal.ts), in a module of its own: the
// package's import defines this class, and the parser loads with its first call.

/** "too-deep": brackets nested deeper than MAX_NESTING_DEPTH; "invalid-literal": anything else. */
export type PythonLiteralErrorType = "invalid-literal" | "too-deep";

export class PythonLiteralError extends Error {
  override readonly name = "PythonLiteralError";
  constructor(
    message: string,
    readonly index: number,
    readonly type: PythonLiteralErrorType = "invalid-literal",
  ) {
    super(`${message} at offset ${index}`);
  }
}
