// Splits a byte stream into JSONL lines (docs/cli-contract.md "Lines"): a line ends at "\n"
// only, a "\r" right before that "\n" is dropped, a bare "\r" is an ordinary byte of the line.
// A line longer than `maxLineBytes` (not counting its "\n" / "\r\n") is reported by its byte
// count and never held: once it is known to be too long, its bytes are dropped as they arrive,
// so memory stays below maxLineBytes + 1 plus the chunk being scanned.
//
// States: COLLECTING (bytes of the current line kept as chunk views) and DISCARDING (the current
// line is too long; only its length is counted). Both end at the next "\n".
//
//   {"text":"a"}\r\n{"te
//               ^ "\r" then "\n": the line is `{"text":"a"}`; `{"te` waits for more

const LF = 0x0a;
const CR = 0x0d;

export interface LineSink {
  line(text: string): void;
  /** A line of `bytes` bytes (terminator excluded) was longer than the limit; it was dropped. */
  tooLong(bytes: number): void;
}

export interface LineSplitter {
  push(chunk: Uint8Array): void;
  /** End of input: a last line without "\n" is still a line (when it has at least one byte). */
  end(): void;
}

export function createLineSplitter(maxLineBytes: number, sink: LineSink): LineSplitter {
  // Decodes whole lines only (never a split character); invalid UTF-8 becomes U+FFFD, and a
  // byte-order mark stays in the text (so it is not JSON), as readline did.
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  let parts: Uint8Array[] = [];
  let held = 0;
  let discarding = false;
  let discarded = 0;
  /** The last byte seen of the current line (a "\r" there is dropped if "\n" follows). */
  let lastByte = -1;

  const finish = (): void => {
    const cr = lastByte === CR ? 1 : 0;
    if (discarding) {
      sink.tooLong(discarded - cr);
    } else if (held - cr > maxLineBytes) {
      sink.tooLong(held - cr);
    } else {
      let bytes: Uint8Array;
      if (parts.length === 1) bytes = parts[0] as Uint8Array;
      else {
        bytes = new Uint8Array(held);
        let at = 0;
        for (const p of parts) {
          bytes.set(p, at);
          at += p.length;
        }
      }
      sink.line(utf8.decode(bytes.subarray(0, held - cr)));
    }
    parts = [];
    held = 0;
    discarding = false;
    discarded = 0;
    lastByte = -1;
  };

  /** Adds bytes of the current line (no "\n" among them). */
  const take = (bytes: Uint8Array): void => {
    if (bytes.length === 0) return;
    lastByte = bytes[bytes.length - 1] as number;
    if (discarding) {
      discarded += bytes.length;
      return;
    }
    held += bytes.length;
    // One byte of slack: a "\r" that a "\n" may still turn into part of the terminator.
    if (held > maxLineBytes + 1) {
      discarding = true;
      discarded = held;
      parts = [];
      held = 0;
      return;
    }
    parts.push(bytes);
  };

  return {
    push(chunk) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(LF, start);
        if (nl === -1) {
          take(chunk.subarray(start));
          return;
        }
        take(chunk.subarray(start, nl));
        finish();
        start = nl + 1;
      }
    },
    end() {
      if (held > 0 || discarding) finish();
    },
  };
}
