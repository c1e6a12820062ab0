// Deterministic text for fixtures and the encode corpus. Same seed => same text, on every
// machine: a tiny PRNG (mulberry32) picks from fixed pools of realistic assistant output
// (English prose with markdown and code, Chinese/Japanese prose, emoji, rare CJK that
// SentencePiece models cover only by byte fallback, JSON tool arguments).

import { mulberry32 } from "../../test-support/mulberry32.ts";

export type Rng = () => number;

export function rng(seed: number): Rng {
  return mulberry32(seed);
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

// Open-vocabulary material, so that word caches in the encoders under test (ours, HF Rust,
// HF JS all have one; SentencePiece C++ has none) see realistic hit rates, not a tiny pool.
const NOUN = [
  "request",
  "buffer",
  "server",
  "client",
  "token",
  "parser",
  "stream",
  "record",
  "column",
  "table",
  "window",
  "cluster",
  "worker",
  "thread",
  "socket",
  "cache",
  "index",
  "schema",
  "vector",
  "matrix",
  "report",
  "invoice",
  "customer",
  "ticket",
  "message",
  "pipeline",
  "model",
  "dataset",
  "gradient",
  "sensor",
  "battery",
  "engine",
  "router",
  "payload",
  "header",
  "library",
  "package",
  "module",
  "runtime",
  "kernel",
  "browser",
  "document",
  "sentence",
  "paragraph",
  "village",
  "mountain",
  "river",
  "forest",
  "harbor",
  "festival",
  "recipe",
  "kitchen",
  "garden",
  "museum",
  "station",
  "airport",
  "hospital",
  "teacher",
  "student",
  "farmer",
  "market",
  "weather",
  "season",
  "journey",
  "question",
  "answer",
  "problem",
  "solution",
  "feature",
  "release",
];
const VERB = [
  "reads",
  "writes",
  "parses",
  "returns",
  "updates",
  "validates",
  "streams",
  "caches",
  "rejects",
  "retries",
  "compresses",
  "merges",
  "splits",
  "renders",
  "schedules",
  "allocates",
  "releases",
  "indexes",
  "migrates",
  "encrypts",
  "observes",
  "measures",
  "explains",
  "describes",
  "compares",
  "publishes",
  "collects",
  "filters",
  "sorts",
  "ranks",
];
const ADJ = [
  "large",
  "small",
  "stale",
  "fresh",
  "nested",
  "empty",
  "partial",
  "invalid",
  "optional",
  "remote",
  "local",
  "shared",
  "private",
  "temporary",
  "persistent",
  "concurrent",
  "sequential",
  "incremental",
  "quadratic",
  "linear",
  "noisy",
  "stable",
  "secure",
  "unsafe",
  "careful",
  "quick",
  "gentle",
  "ancient",
  "modern",
  "rural",
  "urban",
  "northern",
  "southern",
  "quiet",
  "busy",
];
const UNIT = [
  "ms",
  "seconds",
  "minutes",
  "bytes",
  "KB",
  "MB",
  "requests",
  "tokens",
  "rows",
  "files",
  "users",
  "km",
  "kg",
  "°C",
  "percent",
];
const ZH_WORDS = [
  "我们",
  "系统",
  "用户",
  "数据",
  "服务器",
  "请求",
  "缓存",
  "模型",
  "文件",
  "问题",
  "方法",
  "结果",
  "时间",
  "城市",
  "天气",
  "今天",
  "明天",
  "需要",
  "可以",
  "已经",
  "因为",
  "所以",
  "如果",
  "但是",
  "这个",
  "那个",
  "一个",
  "没有",
  "非常",
  "重要",
  "简单",
  "复杂",
  "处理",
  "分析",
  "生成",
  "返回",
  "检查",
  "更新",
  "删除",
  "创建",
  "配置",
  "参数",
  "接口",
  "函数",
  "变量",
  "内存",
  "性能",
  "速度",
  "网络",
  "安全",
  "测试",
  "部署",
  "版本",
  "日志",
  "错误",
  "成功",
  "失败",
  "开始",
  "结束",
  "学习",
  "工作",
  "生活",
  "朋友",
  "家庭",
  "公司",
  "学校",
  "老师",
  "学生",
  "医院",
  "银行",
  "市场",
  "价格",
  "经济",
  "社会",
  "文化",
  "历史",
  "科学",
  "技术",
  "发展",
  "研究",
  "报告",
  "会议",
  "计划",
  "目标",
  "任务",
  "团队",
  "项目",
  "客户",
  "产品",
  "质量",
  "效率",
  "环境",
  "能源",
  "交通",
  "旅游",
  "美食",
  "音乐",
  "电影",
  "运动",
  "健康",
  "春天",
  "夏天",
  "秋天",
  "冬天",
  "山东",
  "广州",
  "成都",
  "武汉",
  "南京",
  "西安",
];
const ZH_PUNCT = ["，", "。", "、", "；", "：", "！", "？", "（注）", "“", "”"];

function num(r: Rng): string {
  const x = r();
  if (x < 0.4) return String(Math.floor(r() * 100));
  if (x < 0.7) return String(Math.floor(r() * 100000));
  if (x < 0.85) return (r() * 1000).toFixed(2);
  return `0x${Math.floor(r() * 0xffffffff).toString(16)}`;
}

function ident(r: Rng): string {
  const a = pick(r, ADJ);
  const n = pick(r, NOUN);
  const x = r();
  return x < 0.33
    ? `${a}_${n}_${Math.floor(r() * 100)}`
    : x < 0.66
      ? a + n[0]?.toUpperCase() + n.slice(1)
      : `${n}.${pick(r, VERB)}()`;
}

/** A fresh English sentence from an open template space (numbers, identifiers, names). */
export function openSentence(r: Rng): string {
  const x = r();
  const cap = (s: string) => (s[0]?.toUpperCase() ?? "") + s.slice(1);
  if (x < 0.3)
    return `${cap(pick(r, ADJ))} ${pick(r, NOUN)}s ${pick(r, VERB)} the ${pick(r, ADJ)} ${pick(r, NOUN)} in ${num(r)} ${pick(r, UNIT)}.`;
  if (x < 0.55)
    return `Call \`${ident(r)}\` before the ${pick(r, NOUN)} ${pick(r, VERB).replace(/s$/, "")}s; otherwise ${ident(r)} is ${pick(r, ADJ)}.`;
  if (x < 0.75)
    return `The ${pick(r, NOUN)} at https://example.org/${pick(r, NOUN)}/${num(r)} ${pick(r, VERB)} ${num(r)} ${pick(r, UNIT)} per ${pick(r, NOUN)}.`;
  return `Why does the ${pick(r, ADJ)} ${pick(r, NOUN)} keep failing when the ${pick(r, NOUN)} is ${pick(r, ADJ)}?`;
}

/** A fresh Chinese sentence: random common words, numbers and punctuation. */
export function openZh(r: Rng): string {
  let s = "";
  const n = 4 + Math.floor(r() * 10);
  for (let i = 0; i < n; i++) {
    s += pick(r, ZH_WORDS);
    if (r() < 0.15) s += num(r);
    if (r() < 0.2) s += pick(r, ZH_PUNCT);
  }
  return `${s}。`;
}

/** English markdown answer prose, about `chars` characters. */
export function englishText(r: Rng, chars: number): string {
  let out = "";
  while (out.length < chars) {
    const x = r();
    if (x < 0.08) out += `\n\n${pick(r, EN_HEAD)}\n\n`;
    else if (x < 0.14) out += `\n\n${pick(r, CODE)}\n\n`;
    else if (x < 0.22) out += `\n- ${pick(r, EN)}`;
    else out += (out.endsWith("\n") || out === "" ? "" : " ") + (x < 0.6 ? pick(r, EN) : openSentence(r));
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
    else out += x < 0.6 ? pick(r, ZH) : openZh(r);
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
 * The encode corpus: `parts` parts of about `partChars` characters each; every part is a
 * list of documents of mixed text (English, CJK, emoji, code, JSON), 500-4000 characters
 * each. Each timed round encodes a DIFFERENT part (same parts, same order, for every
 * encoder), so caches see new text every round, as a server does.
 */
export function encodeCorpus(seed: number, partChars: number, parts: number): string[][] {
  return corpusParts(seed, partChars, parts, (r, size) => {
    const x = r();
    return x < 0.45
      ? englishText(r, size)
      : x < 0.7
        ? cjkText(r, size / 2)
        : x < 0.9
          ? mixedText(r, size)
          : toolCallJson(r, "arguments");
  });
}

/** `parts` parts of about `partChars` characters, each a list of documents `doc` writes for a drawn size of 500-4000. */
function corpusParts(
  seed: number,
  partChars: number,
  parts: number,
  doc: (r: Rng, size: number) => string,
): string[][] {
  const r = rng(seed);
  const out: string[][] = [];
  for (let p = 0; p < parts; p++) {
    const docs: string[] = [];
    let total = 0;
    while (total < partChars) {
      const d = doc(r, 500 + Math.floor(r() * 3500));
      docs.push(d);
      total += d.length;
    }
    out.push(docs);
  }
  return out;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PUNCT = [".", ",", ";", ":", "!", "?", "-", "_", "(", ")", "/", "=", "\n"];

/** One random "word": letters (sometimes camelCase / with digits) or a run of random CJK. */
function coldWord(r: Rng): string {
  const x = r();
  let w = "";
  if (x < 0.15) {
    const n = 1 + Math.floor(r() * 4);
    for (let i = 0; i < n; i++) w += String.fromCharCode(0x4e00 + Math.floor(r() * 0x5000));
    return w;
  }
  if (x < 0.25) return String(Math.floor(r() * 1e6));
  const n = 2 + Math.floor(r() * 10);
  for (let i = 0; i < n; i++) w += LETTERS[Math.floor(r() * (i === 0 || r() < 0.1 ? 52 : 26))];
  return w;
}

/**
 * COLD text: random words (random letters, digits, random CJK ideographs), so nearly every
 * word is new to every word/segment cache: the cache-miss path of every encoder. Same shape as
 * encodeCorpus (parts of documents of 500-4000 characters); NFC by construction.
 */
export function coldCorpus(seed: number, partChars: number, parts: number): string[][] {
  return corpusParts(seed, partChars, parts, (r, size) => {
    let d = "";
    while (d.length < size) d += coldWord(r) + (r() < 0.12 ? pick(r, PUNCT) : "") + " ";
    return d;
  });
}
