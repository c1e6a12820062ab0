// The typed error a call throws (tests of refusals): any other exception is rethrown, and a
// call that returns fails the test.
import { TokenizerError } from "../src/errors.ts";

export function errorOf(f: () => unknown): TokenizerError {
  try {
    f();
  } catch (e) {
    if (TokenizerError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("no error");
}

/** The typed error a promise rejects with (the same rules as errorOf). */
export async function rejectionOf(p: Promise<unknown>): Promise<TokenizerError> {
  try {
    await p;
  } catch (e) {
    if (TokenizerError.isInstance(e)) return e;
    throw e;
  }
  throw new Error("no error");
}
