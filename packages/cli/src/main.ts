export async function main(argv: readonly string[]): Promise<number> {
  process.stderr.write(`chatwire: not implemented yet: ${argv.join(" ")}\n`);
  return 2;
}
