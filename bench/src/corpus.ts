// Deterministic text for fixtures and the encode corpus. Same seed => same text, on every
// machine: a tiny PRNG (mulberry32) picks from fixed pools of realistic assistant output
// (English prose with markdown and code, Chinese/Japanese prose, emoji, rare CJK that
// SentencePiece models cover only by byte fallback, JSON tool arguments).

export type Rng = () => number;

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: Rng, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

const EN = [
  "The function reads the configuration file once and caches the parsed result for later calls.",
  "If the request times out, the client retries with exponential backoff, up to five attempts.",
  "Here is a short summary of the trade-offs between the two approaches.",
  "Memory usage stays flat because the buffer is reused between iterations.",
  "You can verify this by running the test suite with the verbose flag enabled.",
  "Note that the API returns timestamps in UTC, so convert them before displaying.",
  "The benchmark shows a 3.2x improvement on long inputs, but short inputs are unchanged.",
  "First, install the dependencies; then run the migration script against a staging database.",
  "This approach avoids quadratic behaviour when the output grows to thousands of tokens.",
  "Let me know if you'd like a version that streams the results instead of buffering them.",
  "In practice, most users hit the cache, so the cold path matters less than it seems.",
  "The weather in Shanghai is expected to be mild, around 22°C with light rain in the evening.",
  "A common mistake is to compare floating-point values with strict equality.",
  "We keep the public interface small: one constructor, three methods, and an event handler.",
  "Error messages name the file, the field and the byte offset, which makes debugging easier.",
  "Both versions produce identical output on the 10,000-sample validation set.",
];
const EN_HEAD = ["## Overview", "## Steps", "### Details", "## Example", "### Caveats", "## Summary"];
const CODE = [
  "```ts\nexport function sum(xs: number[]): number {\n  let s = 0;\n  for (const x of xs) s += x;\n  return s;\n}\n```",
  "```python\ndef fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n```",
  "```bash\nnpm install --save-exact chatwire\nnode bench/run.js --quick --json\n```",
  '```json\n{"model": "qwen3", "max_tokens": 512, "temperature": 0.7, "stop": ["</answer>"]}\n```',
];
const ZH = [
  "这个函数只读取一次配置文件，并把解析结果缓存起来供后续调用使用。",
  "如果请求超时，客户端会以指数退避的方式重试，最多五次。",
  "下面是两种方案之间权衡的简要总结。",
  "由于缓冲区在每次迭代之间被重复使用，内存占用保持平稳。",
  "上海明天多云转小雨，气温二十二摄氏度左右，请注意携带雨具。",
  "我们先安装依赖，然后在测试数据库上运行迁移脚本。",
  "在长文本上，这种方法避免了平方级的时间开销。",
  "错误信息会指出文件名、字段和字节偏移，方便排查问题。",
  "北京、杭州和深圳的用户都反馈说响应速度明显变快了。",
  "请注意：接口返回的时间戳是协调世界时，需要先转换再显示。",
];
const JA = [
  "この関数は設定ファイルを一度だけ読み込み、結果をキャッシュします。",
  "タイムアウトした場合、クライアントは指数バックオフで再試行します。",
  "東京の天気は晴れ、最高気温は二十五度の予想です。",
];
// Rare CJK (CJK Ext. B and uncommon characters) and emoji: byte fallback in SentencePiece.
const RARE = ["𠮷野家", "𩸽の塩焼き", "龘", "䲜", "𪚥", "齉", "𡈽", "鱻"];
const EMOJI = ["😀", "🚀", "✅", "🎉", "👍🏽", "🇨🇳", "❤️", "🤖", "🌧️", "👨‍👩‍👧"];

/** English markdown answer prose, about `chars` characters. */
export function englishText(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    if (x < 0.08) out += `\n\n${pick(r, EN_HEAD)}\n\n`;
    else if (x < 0.14) out += `\n\n${pick(r, CODE)}\n\n`;
    else if (x < 0.22) out += `\n- ${pick(r, EN)}`;
    else out += (out.endsWith("\n") || out === "" ? "" : " ") + pick(r, EN);
  }
  return out.trimStart();
}

/** Chinese/Japanese prose with emoji and rare characters, about `chars` characters. */
export function cjkText(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    if (x < 0.12) out += pick(r, EMOJI);
    else if (x < 0.2) out += pick(r, RARE);
    else if (x < 0.3) out += pick(r, JA);
    else if (x < 0.36) out += "\n\n";
    else out += pick(r, ZH);
  }
  return out;
}

/** Mixed: English and CJK paragraphs, emoji, code. */
export function mixedText(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    if (x < 0.5) out += englishText(r, 200);
    else if (x < 0.85) out += cjkText(r, 80);
    else out += pick(r, CODE);
    out += "\n\n";
  }
  return out;
}

/** Prose without quotes, backslashes or newlines: safe to cut anywhere inside a JSON string. */
export function jsonSafeProse(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    out += x < 0.6 ? pick(r, EN) + " " : x < 0.9 ? pick(r, ZH) : pick(r, EMOJI);
  }
  return out.replace(/["\\\n]/g, " ");
}

const CITIES = ["Shanghai", "Beijing", "Hangzhou", "Shenzhen", "Tokyo", "Berlin", "上海", "北京"];

/** One realistic tool-call JSON object (as text), 150-600 characters. */
export function toolCallJson(r: Rng, argsKey: "arguments" | "parameters"): string {
  const x = r();
  if (x < 0.4) {
    return JSON.stringify({
      name: "get_current_weather",
      [argsKey]: {
        location: pick(r, CITIES),
        unit: r() < 0.5 ? "celsius" : "fahrenheit",
        days: 1 + Math.floor(r() * 7),
      },
    });
  }
  if (x < 0.7) {
    return JSON.stringify({
      name: "search_documents",
      [argsKey]: {
        query: pick(r, EN),
        filters: { lang: r() < 0.5 ? "en" : "zh", year: 2020 + Math.floor(r() * 6) },
        top_k: 5,
      },
    });
  }
  return JSON.stringify({
    name: "run_code",
    [argsKey]: { language: "python", code: pick(r, CODE).replace(/```\w*\n?/g, ""), timeout_s: 30 },
  });
}

/**
 * The encode corpus: `docs` documents of mixed text (English, CJK, emoji, code, JSON), each
 * 500-4000 characters. Every encoder under test encodes exactly these strings.
 */
export function encodeCorpus(seed: number, totalChars: number): string[] {
  const r = rng(seed);
  const docs: string[] = [];
  let total = 0;
  while (total < totalChars) {
    const size = 500 + Math.floor(r() * 3500);
    const x = r();
    const d =
      x < 0.45
        ? englishText(r, size)
        : x < 0.7
          ? cjkText(r, size / 2)
          : x < 0.9
            ? mixedText(r, size)
            : toolCallJson(r, "arguments");
    docs.push(d);
    total += d.length;
  }
  return docs;
}
