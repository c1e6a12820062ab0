// The o200k_harmony IDs of harmony's structural tokens as a static table: read ONLY by
// stream-decoder's harmony-decoder.ts, until the one decoder engine reads the loaded files'
// verified tokenIds like every other format (the renderers already do). Delete with that change.
export const GPTOSS_IDS = {
  startOfText: 199998,
  endOfText: 199999,
  return: 200002,
  constrain: 200003,
  channel: 200005,
  start: 200006,
  end: 200007,
  message: 200008,
  call: 200012,
  endOfPrompt: 200018,
} as const;
