// gpt-oss rendering: the existing harmony renderer (../../formats/gpt-oss.ts, which places the
// static GPTOSS_IDS) behind a sink that maps each of those IDs to the verified ID of the same
// token key, so the encoding uses what the loaded files say (identical for o200k_harmony).

import { gptOss } from "../../formats/gpt-oss.ts";
import { GPTOSS_IDS } from "../../formats/gpt-oss-ids.ts";
import type { ChatSink } from "../../formats/sink.ts";
import type { TokenIds } from "../definition.ts";
import type { GptOssKey } from "./definition.ts";

/** A sink placing ids[key] wherever the harmony renderer places GPTOSS_IDS[key]. */
function remapped(sink: ChatSink, ids: TokenIds<GptOssKey>): ChatSink {
  const map = new Map<number, number>();
  for (const key of Object.keys(GPTOSS_IDS) as GptOssKey[]) map.set(GPTOSS_IDS[key], ids[key]);
  return {
    reserved: (id, message, field) => sink.reserved(map.get(id) ?? id, message, field),
    text: (text, message, field) => sink.text(text, message, field),
    caller: (text, message, field, ref) => sink.caller(text, message, field, ref),
    template: (text, message, field) => sink.template(text, message, field),
    cut: () => sink.cut(),
  };
}

export function renderGptOss(request: unknown, sink: ChatSink, ids: TokenIds<GptOssKey>): void {
  gptOss.render(request, remapped(sink, ids));
}
