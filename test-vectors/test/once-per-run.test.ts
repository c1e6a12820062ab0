// test-support/once-per-run.ts: the guard that keeps vitest's global setups to one run per
// process although every project that extends the root config runs them again.
import { expect, it } from "vitest";
import { oncePerRun } from "../../test-support/once-per-run.ts";

it("runs a setup once per name; later callers get undefined", () => {
  const name = `test-once-${Math.random()}`;
  let runs = 0;
  expect(oncePerRun(name, () => ++runs)).toBe(1);
  expect(oncePerRun(name, () => ++runs)).toBeUndefined();
  expect(oncePerRun(`${name}-other`, () => ++runs)).toBe(2);
  expect(runs).toBe(2);
});

it("a setup that throws is not marked done: the next caller runs it and sees the error again", () => {
  const name = `test-once-throws-${Math.random()}`;
  let runs = 0;
  const failing = (): never => {
    runs++;
    throw new Error("build failed");
  };
  expect(() => oncePerRun(name, failing)).toThrow("build failed");
  expect(() => oncePerRun(name, failing)).toThrow("build failed");
  expect(runs).toBe(2);
});
