// The content of a response_format request (json_object / json_schema) whose model wrapped its
// JSON in a Markdown fence: ```json\n{...}\n``` becomes {...}, as the client asked for JSON.
// Ministral writes its structured output that way (llama.cpp's chat.cpp: "Ministral wants to
// emit json surrounded by code fences"; its grammar allows the fence and its parser returns the
// JSON inside). An engine whose constrained sampling writes the JSON itself gives content with
// no fence: it passes unchanged.
//
// A streaming filter over the content deltas, three states:
//
//   LEAD   the content so far may still become an opening fence: held   |  ```js|
//   BODY   after an opening fence: passed on, except a tail that may be   {"a": 1}|\n``|
//          the closing fence (whitespace, up to three backticks, whitespace), dropped at the end
//          when it is one
//   PASS   no opening fence: everything passes unchanged
//
// Linear: each unit is looked at a bounded number of times (the held lead and the held tail
// are at most MAX_LEAD units each).

const LEAD = 0;
const BODY = 1;
const PASS = 2;

/** The most units held: the lead before an opening fence, the tail before the content's end. */
const MAX_LEAD = 256;

/** A complete opening fence at the start of the content: whitespace, ``` or ```json, the line end. */
const OPENING = /^[ \t\r\n]*```(?:json)?[ \t]*\r?\n/u;

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\r" || c === "\n";

/** Whether `s` (the whole content so far) may still become an opening fence. */
function mayOpen(s: string): boolean {
  const t = s.replace(/^[ \t\r\n]+/u, "");
  return "```json".startsWith(t) || /^```(?:json)?[ \t]*\r?$/u.test(t);
}

export class JsonFenceFilter {
  private state = LEAD;
  /** LEAD: the content so far; BODY: the held tail. */
  private held = "";

  /** The part of `text` (a content delta) to send now. */
  push(text: string): string {
    if (this.state === PASS) return text;
    const s = this.held + text;
    if (this.state === BODY) return this.body(s);
    const m = OPENING.exec(s);
    // An opening longer than the most a lead may hold is none: one unit at a time, its lead would
    // have passed at MAX_LEAD + 1 units (so any chunking gives the same text).
    if (m !== null && m[0].length <= MAX_LEAD) {
      this.state = BODY;
      return this.body(s.slice(m[0].length));
    }
    if (s.length <= MAX_LEAD && mayOpen(s)) {
      this.held = s;
      return "";
    }
    this.state = PASS;
    this.held = "";
    return s;
  }

  /** What is held, at the end of the content: a closing fence (and the space around it) dropped. */
  end(): string {
    const s = this.held;
    this.held = "";
    const state = this.state;
    this.state = PASS;
    if (state === BODY && /^[ \t\r\n]*```[ \t\r\n]*$/u.test(s)) return "";
    return s;
  }

  /** What is held, sent as it is (other content follows: an action's text); the filter passes from here. */
  release(): string {
    const s = this.held;
    this.held = "";
    this.state = PASS;
    return s;
  }

  /** BODY: `s` minus the tail that may be the closing fence, which is held. */
  private body(s: string): string {
    let i = s.length;
    while (i > 0 && isSpace(s[i - 1])) i--;
    let ticks = 0;
    while (i > 0 && ticks < 3 && s[i - 1] === "`") {
      i--;
      ticks++;
    }
    if (ticks > 0) while (i > 0 && isSpace(s[i - 1])) i--;
    // At most MAX_LEAD units held, so no unit is rescanned more than that many times (a long run
    // of whitespace goes out, and a closing fence after it is then sent as text).
    i = Math.max(i, s.length - MAX_LEAD);
    this.held = s.slice(i);
    return s.slice(0, i);
  }
}
