// Body syntax "raw": code kept as action text; the call is {name: kind, arguments: {code}} with
// one surrounding Markdown fence stripped. No tool-call events.
import { type ActionResult, codeCall } from "../action-parse.ts";
import type { BodyParser } from "./body.ts";

export class RawParser implements BodyParser {
  private kind = "";

  reset(_sink: unknown, _tools: unknown, kind = ""): void {
    this.kind = kind;
  }

  feed(_text: string): void {}

  readsText(): boolean {
    return false;
  }

  separator(): void {}

  end(raw: string): ActionResult {
    return codeCall(raw, this.kind);
  }
}
