// The ONE table of body syntaxes (BodySyntax of @chatwire/tokenizer's grammar) -> parser. A
// grammar naming a syntax that is not listed here still decodes: its actions end with an
// error ("no parser for body syntax ...") and carry the raw text.
import type { BodySyntax } from "@chatwire/tokenizer";
import { XML_SPELLINGS } from "@chatwire/tokenizer";
import { ArgKeyValueParser } from "./arg-key-value.ts";
import type { BodyParserFactory } from "./body.ts";
import { boundedFactory } from "./body-support.ts";
import { CallIdArgsParser } from "./call-id-args.ts";
import { createFencedJsonCallParser } from "./fenced-json-call.ts";
import { JsonArgumentsParser } from "./json-arguments.ts";
import { JsonCallParser } from "./json-call.ts";
import { createJsonCallListParser, createJsonNamedCallListParser } from "./json-call-list.ts";
import { MarkerQuotedCallParser } from "./marker-quoted-call.ts";
import { NameArgsParser } from "./name-args.ts";
import { PythonCallParser } from "./python-call.ts";
import { PythonCallListParser } from "./python-call-list.ts";
import { RawParser } from "./raw.ts";
import { createResponseFieldParser } from "./response-field.ts";
import { TagNameJsonParser } from "./tag-name-json.ts";
import { XmlCallListParser, XmlCallParser } from "./xml-call.ts";

export const BODY_SYNTAXES: Readonly<Partial<Record<BodySyntax, BodyParserFactory>>> = {
  "json-call": (o) => new JsonCallParser(o),
  "json-call-list": createJsonCallListParser,
  "python-call": boundedFactory(PythonCallParser),
  raw: () => new RawParser(),
  "fenced-json-call": createFencedJsonCallParser,
  "xml-call": boundedFactory(XmlCallParser),
  "name-args": boundedFactory(NameArgsParser),
  "python-call-list": boundedFactory(PythonCallListParser),
  "marker-quoted-call": boundedFactory(MarkerQuotedCallParser),
  "tag-name-json": boundedFactory(TagNameJsonParser),
  "call-id-args": boundedFactory(CallIdArgsParser),
  "xml-invoke-list": (o) => new XmlCallListParser(o.maxBufferedChars, XML_SPELLINGS["xml-invoke-list"]),
  "dsml-invoke-list": (o) => new XmlCallListParser(o.maxBufferedChars, XML_SPELLINGS["dsml-invoke-list"]),
  "arg-key-value": boundedFactory(ArgKeyValueParser),
  "json-named-call-list": createJsonNamedCallListParser,
  "response-field": createResponseFieldParser,
  "json-arguments": boundedFactory(JsonArgumentsParser),
};
