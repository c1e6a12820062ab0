// harmony's built-in tool namespaces: a re-implementation (labelled as such) of openai/harmony
// v0.0.8 src/chat.rs `ToolNamespaceConfig::browser()` and `ToolNamespaceConfig::python()` (the
// text `SystemContent::with_browser_tool()` / `with_python_tool()` put into the system message).
// The descriptions and schemas are harmony's own, restated here; the gpt-oss chat_template writes
// the same text (its `render_builtin_tools`, kwarg `builtin_tools`). Checked token for token
// against harmony's test_browser_*.txt (packages/tokenizer/test/gpt-oss-peer.test.ts).
import type { HarmonyNamespace } from "./harmony-tools.ts";

export const HARMONY_BROWSER: HarmonyNamespace = {
  name: "browser",
  description: [
    "Tool for browsing.",
    "The `cursor` appears in brackets before each browsing display: `[{cursor}]`.",
    "Cite information from the tool using the following format:",
    "`【{cursor}†L{line_start}(-L{line_end})?】`, for example: `【6†L9-L11】` or `【8†L3】`.",
    "Do not quote more than 10 words directly from the tool output.",
    "sources=web (default: web)",
  ].join("\n"),
  tools: [
    {
      name: "search",
      description: "Searches for information related to `query` and displays `topn` results.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string" },
          topn: { type: "number", default: 10 },
          source: { type: "string" },
        },
        required: ["query"],
      },
    },
    {
      name: "open",
      description: [
        "Opens the link `id` from the page indicated by `cursor` starting at line number `loc`, showing `num_lines` lines.",
        "Valid link ids are displayed with the formatting: `【{id}†.*】`.",
        "If `cursor` is not provided, the most recent page is implied.",
        "If `id` is a string, it is treated as a fully qualified URL associated with `source`.",
        "If `loc` is not provided, the viewport will be positioned at the beginning of the document or centered on the most relevant passage, if available.",
        "Use this function without `id` to scroll to a new location of an opened page.",
      ].join("\n"),
      parameters: {
        type: "object",
        properties: {
          id: { type: ["number", "string"], default: -1 },
          cursor: { type: "number", default: -1 },
          loc: { type: "number", default: -1 },
          num_lines: { type: "number", default: -1 },
          view_source: { type: "boolean", default: false },
          source: { type: "string" },
        },
      },
    },
    {
      name: "find",
      description: "Finds exact matches of `pattern` in the current page, or the page given by `cursor`.",
      parameters: {
        type: "object",
        properties: {
          pattern: { type: "string" },
          cursor: { type: "number", default: -1 },
        },
        required: ["pattern"],
      },
    },
  ],
};

export const HARMONY_PYTHON: HarmonyNamespace = {
  name: "python",
  description:
    "Use this tool to execute Python code in your chain of thought. The code will not be shown to the user. This tool should be used for internal reasoning, but not for code that is intended to be visible to the user (e.g. when creating plots, tables, or files).\n\nWhen you send a message containing Python code to python, it will be executed in a stateful Jupyter notebook environment. python will respond with the output of the execution or time out after 120.0 seconds. The drive at '/mnt/data' can be used to save and persist user files. Internet access for this session is UNKNOWN. Depends on the cluster.",
  tools: [],
};

/** The `builtin_tools` names the gpt-oss chat_template knows. */
export const HARMONY_BUILTINS: ReadonlyMap<string, HarmonyNamespace> = new Map([
  ["browser", HARMONY_BROWSER],
  ["python", HARMONY_PYTHON],
]);
