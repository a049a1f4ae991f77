export type Out = (line: string) => void;

/** Where a command writes: results to `out` (stdout), progress and failures to `err` (stderr). */
export interface Io {
  out: Out;
  err: Out;
  /** Text as it streams in (an answer), without a line break. */
  write(text: string): void;
  /** Whether stderr is a terminal: progress bars only draw on one. */
  interactive: boolean;
}

export const printJson = (io: Io, value: unknown) => io.out(JSON.stringify(value, null, 2));

/** Rows as aligned columns under a header. */
export function table(io: Io, header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ');
  io.out(line(header));
  for (const row of rows) io.out(line(row));
}
