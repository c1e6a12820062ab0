// The clock a chat template reads (transformers' strftime_now: Python's datetime.now(), local
// time) and the request's pin for it: `now`, a local date and time "YYYY-MM-DDTHH:MM[:SS]"
// without a zone (the wall clock the template would have read). Every format takes the same
// pin: native families that write a date (Llama 3.1+, gpt-oss) and the template path give the
// same text for the same request (docs/formats.md "The clock").
import { strftime } from "../jinja/strftime.ts";
import { invalid } from "./schema.ts";

const NOW_SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The request's `now` as a local Date (invalid-conversation at field `now` when malformed). */
export function parseNow(v: unknown): Date | undefined {
  if (v === undefined || v === null) return undefined;
  const m = typeof v === "string" ? NOW_SHAPE.exec(v) : null;
  if (m === null) throw invalid('must be a local date and time "YYYY-MM-DDTHH:MM[:SS]"', { field: "now" });
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as number[];
  const date = new Date(y as number, (mo as number) - 1, d, h, mi, s);
  // new Date() rolls 2024-02-30 over into March: a date that does not exist is refused.
  if (date.getFullYear() !== y || date.getMonth() !== (mo as number) - 1 || date.getDate() !== d)
    throw invalid("is not a date of the calendar", { field: "now" });
  if ((h as number) > 23 || (mi as number) > 59 || (s as number) > 59)
    throw invalid("is not a time of day", { field: "now" });
  return date;
}

/** strftime_now as the template has it: the pinned time, else the current local time. */
export function strftimeAt(now: Date | undefined, format: string): string {
  return strftime(now ?? new Date(), format);
}
