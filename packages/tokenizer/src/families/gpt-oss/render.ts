// gpt-oss rendering: the request mapping and the two harmony renderers (./request.ts), placing
// the loaded files' verified IDs.
import type { ChatSink } from "../../chat/sink.ts";
import type { TokenIds } from "../definition.ts";
import { renderGptOssRequest } from "./request.ts";
import type { GptOssKey } from "./tokens.ts";

export function renderGptOss(request: unknown, sink: ChatSink, ids: TokenIds<GptOssKey>): void {
  renderGptOssRequest(request, sink, ids);
}
