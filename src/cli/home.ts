// The user's home directory as every command reads it: from the command's
// environment (RunContext.env), apart from workspace.ts so that a command
// that needs only the home (kb init) loads nothing of the knowledge base.

/** The user's home directory: HOME where it is set, as `os.homedir()` reads
 *  it outside Windows; else the system's answer, from node:os, which is
 *  loaded only then (importing it costs start-up time). */
export async function homeDirectory(env: Record<string, string | undefined>): Promise<string> {
  const home = env.HOME;
  if (home !== undefined && home !== '' && process.platform !== 'win32') return home;
  return (await import('node:os')).homedir();
}
