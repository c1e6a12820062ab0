// Response and tool-call ids (docs/openai.md "Ids"):
//   response:  chatcmpl-<24 hex>            (random per response)
//   tool call: call_<the same 24 hex>_<index> (index = the call's position in this response)
// so a tool-call id is unique within its response by index and across responses by the random
// part. Random bytes come from the Web Crypto API (global in Node >= 20 and browsers); tests
// pass their own `random` for fixed ids.

export type RandomHex = () => string;

export const randomHex24: RandomHex = () => {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
};

export function responseId(hex: string): string {
  return `chatcmpl-${hex}`;
}

export function toolCallId(hex: string, index: number): string {
  return `call_${hex}_${index}`;
}
