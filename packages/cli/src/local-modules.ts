/**
 * The modules that operate Rhizome on this machine: the service commands, the local MCP server and the
 * doctor's checks. They load the whole server, so the commands that only talk to a server import them
 * on demand. The prebuilt command line (scripts/build.mjs) replaces this module: there, asking for one of
 * them runs the whole command again from source, where the server's code (worker threads included) runs
 * as it is written.
 */
export const loadServiceCommands = () => import('./service-commands.ts');
export const loadMcp = () => import('./mcp.ts');
export const loadDoctorChecks = () => import('./commands/doctor-checks.ts');
