declare const tablesDir: string;
export = tablesDir;
