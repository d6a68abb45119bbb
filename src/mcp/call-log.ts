// What agents asked of the library, for the curator: one stderr line per search_skills / read_skill / select_skills
// call, with the running count per tool. An MCP client keeps a server's stderr as its log (Claude Code's MCP logs,
// Codex's); the same calls are stored for the Usage view by usage-recorder.ts.
export type LoggedTool = 'search_skills' | 'read_skill' | 'select_skills';

export interface CallLog {
  record(tool: LoggedTool, detail: string): void;
  /** A line that is not a call (a cancellation). */
  note(line: string): void;
  counts(): Record<LoggedTool, number>;
}

export const logText = (text: string, max = 80): string =>
  JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function createCallLog(write: (line: string) => void, now = () => new Date()): CallLog {
  const counts: Record<LoggedTool, number> = { search_skills: 0, read_skill: 0, select_skills: 0 };
  return {
    record(tool, detail) {
      counts[tool] += 1;
      const totals = `search ${counts.search_skills}, read ${counts.read_skill}, select ${counts.select_skills}`;
      write(`mcp ${now().toISOString()} ${tool} #${counts[tool]} ${detail} (calls so far: ${totals})`);
    },
    note: (line) => write(`mcp ${now().toISOString()} ${line}`),
    counts: () => ({ ...counts }),
  };
}
