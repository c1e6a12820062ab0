export declare function unicodeToByte(): Map<string, number>;
