export declare const BEGIN: string;
export declare const END: string;
export interface Target {
  readonly key: string;
  readonly met: boolean;
  readonly value: string;
  readonly target: string;
}
export declare function parseTargets(markdown: string): Target[];
export declare function readmeTable(markdown: string): string;
export declare function withTable(readme: string, results: string): string;
export declare function updateReadme(options?: { check?: boolean }): boolean;
