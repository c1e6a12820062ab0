// The one error class of @chatwire/openai: a request the server cannot honour. Returned as a
// value by the request mapper (never thrown past the API); the server turns it into an
// OpenAI-shaped error body with HTTP status `status` (400 unless said otherwise).

const MARK = Symbol.for("chatwire.openai.RequestError");

/** Kebab-case reasons a request is refused. */
export type RequestErrorType =
  | "invalid-request"
  | "invalid-parameter"
  | "unsupported-parameter"
  | "unknown-parameter"
  | "invalid-conversation";

export class RequestError extends Error {
  override readonly name = "RequestError";
  readonly type: RequestErrorType;
  /** The request field at fault ("n", "messages[2].content", ...), when there is one. */
  readonly param: string | null;
  readonly status: number;
  readonly [MARK] = true;

  constructor(type: RequestErrorType, message: string, param: string | null = null, status = 400) {
    super(message);
    this.type = type;
    this.param = param;
    this.status = status;
  }

  static isInstance(v: unknown): v is RequestError {
    return typeof v === "object" && v !== null && (v as { [MARK]?: unknown })[MARK] === true;
  }

  /** The OpenAI error body: `{"error": {message, type, param, code}}`. */
  toBody(): ErrorBody {
    return {
      error: { message: this.message, type: "invalid_request_error", param: this.param, code: this.type },
    };
  }
}

export interface ErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** Caller text in messages is quoted at most 40 chars. */
export function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}
