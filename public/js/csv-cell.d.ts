// The types of csv-cell.js for the TypeScript side (the CLI's export); the pages check the JS itself.
export declare function csvCell(value: unknown): string;
export declare function csvText(head: readonly string[], rows: readonly (readonly unknown[])[]): string;
