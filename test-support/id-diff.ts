// A readable explanation of an ID mismatch for failing golden tests:
// the first differing index, a window of IDs with their names on both sides, and both sides
// decoded.

export function idDiff(
  want: readonly number[],
  got: readonly number[],
  label: (id: number) => string | undefined,
  render: (ids: readonly number[]) => string,
): string {
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  const win = (ids: readonly number[]): string =>
    ids
      .slice(Math.max(0, i - 3), i + 6)
      .map((id) => `${id}:${JSON.stringify(label(id))}`)
      .join(" ");
  return [
    `first difference at index ${i} (want ${want.length} ids, got ${got.length})`,
    `  want: ${win(want)}`,
    `  got:  ${win(got)}`,
    `  want text: ${JSON.stringify(render(want)).slice(0, 300)}`,
    `  got text:  ${JSON.stringify(render(got)).slice(0, 300)}`,
  ].join("\n");
}
