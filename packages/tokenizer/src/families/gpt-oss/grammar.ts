// gpt-oss's decoder grammar: the harmony header syntax selects its own decoder
// (stream-decoder harmony-decoder.ts), which reads these markers.
//   ‹start›ROLE[ to=R]‹channel›C[ TYPE]‹message›CONTENT‹end›   ‹return›/‹call› stop
import type { Grammar } from "../grammar.ts";
import type { GptOssKey } from "./definition.ts";

export const grammar: Grammar<GptOssKey> = {
  markers: {
    endOfText: { move: "end-of-text" },
    start: { move: "message-start" },
    message: { move: "header-end" },
    end: { move: "message-end" },
  },
  header: { syntax: "harmony" },
};
