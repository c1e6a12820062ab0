// toEqual for the event lists the differential suites compare thousands of times: node's strict
// deep equality first (what it finds equal, toEqual finds equal too, at several times the cost),
// then toEqual itself only where that finds a difference, for toEqual's own verdict and message.
import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";

/** expect(actual, message).toEqual(expected), cheaper when they are equal. */
export function expectEqual<T>(actual: T, expected: T, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}
