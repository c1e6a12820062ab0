// vitest runs the root config's globalSetup again for every project that extends it (three
// projects in vitest.config.ts), all in the one main process: a setup wrapped here runs once per
// run. A setup that throws is not marked done, so the next project's run fails the same way.

/** `setup`, run only by the first caller in this process for `name`; later callers get undefined. */
export function oncePerRun<T>(name: string, setup: () => T): T | undefined {
  const key = Symbol.for(`chatwire.test.global-setup.${name}`);
  const done = globalThis as { [k: symbol]: true | undefined };
  if (done[key] === true) return undefined;
  const result = setup();
  done[key] = true;
  return result;
}
