/**
 * Names each submission that ended and may have moved something (done, or failed without a
 * reply), '' otherwise: a change means "reload".
 */
export function movedSomething(snapshot: {
  value: unknown;
  context: { attempts: number; uncertain: boolean };
}): string {
  const settled =
    snapshot.value === 'done' || (snapshot.value === 'failed' && snapshot.context.uncertain);
  return settled ? `${snapshot.context.attempts}:${String(snapshot.value)}` : '';
}
