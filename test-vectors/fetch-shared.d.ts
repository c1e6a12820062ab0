export interface SourceEntry {
  readonly file: string;
  readonly repository: string;
  readonly revision: string;
  readonly path: string;
  readonly extract: string;
  readonly sha256: string;
  readonly licence: string;
}
export declare const SOURCES_PATH: string;
export declare const COLUMNS: readonly string[];
export declare const AREAS: Readonly<Record<string, string>>;
export declare function areaOf(file: string): string | undefined;
export declare function parseSources(markdown: string): SourceEntry[];
export declare function sourceUrl(e: SourceEntry): string;
export declare function lfsUrl(e: SourceEntry): string;
export declare function isLfsPointer(bytes: Uint8Array): boolean;
export declare function tarFile(tar: Uint8Array, wanted: string): Uint8Array | undefined;
export declare function hfjsTemplates(source: string): Record<string, unknown>;
export declare function openvinoTemplates(source: string, python?: string): Record<string, unknown>;
export declare function extract(e: SourceEntry, bytes: Uint8Array, parsed?: Map<string, unknown>): Uint8Array;
export declare function sha256(bytes: Uint8Array | string): string;
