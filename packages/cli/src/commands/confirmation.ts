/** What a source parked at the confirmation gate waits for, and the command that gives it. */
export const confirmationHint = (sourceId: string | null) =>
  `waiting for its domain to be confirmed: run 'rhizome sources confirm ${sourceId}' to extract it (--domain <name> to choose another)`;
