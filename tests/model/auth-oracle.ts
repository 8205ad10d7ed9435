/**
 * The auth flow as the spec (§4, §8) describes it, written by hand: which state each person's
 * action or endpoint reply leads to, and the side effects it must have. The path tests
 * (auth-view-paths.tsx) check the machine and its views against this table, never against the
 * machine's own graph. " (overstep tab)": the tab runs on a session-storage token.
 */

const OVERSTEP_TAB = ' (overstep tab)';

/** Signed out, as the login page shows it: plain, or with the reason the last try failed. */
export const SIGNED_OUT = [
  'signedOut',
  'signedOut, login refused',
  'signedOut, overstep failed',
  'signedOut, user info failed',
  'signedOut, reloaded',
] as const;

export const AUTH_TRANSITIONS: Record<string, string> = {};
export const AUTH_EFFECTS: Record<string, string[]> = {};

function row(from: string, event: string, to: string, effects?: string[]) {
  AUTH_TRANSITIONS[`${from} ${event}`] = to;
  if (effects) AUTH_EFFECTS[`${from} ${event}`] = effects;
}

const CLEAR_SESSION = (token: string) => [`clear:${token}`, 'tabs reset', 'menu cleared'];

for (const state of SIGNED_OUT) {
  row(state, 'LOGIN', 'signingIn');
  row(state, 'OVERSTEP', 'overstepping');
}
// A refused login forgets a stale local token; an accepted one replaces any overstep token.
row('signingIn', 'done.actor.login', 'loadingUser', ['clear:session', 'store:local:local-token']);
row('signingIn', 'error.actor.login', 'signedOut, login refused', ['clear:local']);
row('overstepping', 'done.actor.overstep', `loadingUser${OVERSTEP_TAB}`, [
  'store:session:overstep-token',
  'menu cleared',
]);
row('overstepping', 'error.actor.overstep', 'signedOut, overstep failed', ['menu cleared']);
row('loadingUser', 'done.actor.loadUser', 'signedIn');
// A planted bug sent this to signedOut, leaving the token stored.
row('loadingUser', 'error.actor.loadUser', 'loggingOut, user info failed');
row(`loadingUser${OVERSTEP_TAB}`, 'done.actor.loadUser', `signedIn${OVERSTEP_TAB}`);
// An overstep tab cannot log in again by itself: the dialog that closes it.
row(`loadingUser${OVERSTEP_TAB}`, 'error.actor.loadUser', 'sessionExpired');

for (const tab of ['', OVERSTEP_TAB]) {
  const token = tab ? 'session' : 'local';
  for (const state of ['signedIn', 'refreshing', 'confirmingLogout']) {
    const from = state + tab;
    // Another tab's logout removes the shared local token: an overstep tab runs on its own.
    if (!tab) row(from, 'EXTERNAL_LOGOUT', 'signedOut', CLEAR_SESSION(token));
    // Behind a modal dialog a person reaches neither the user menu, a form nor a link.
    if (state === 'confirmingLogout') continue;
    row(from, 'SIGNED_OUT_BY_SERVER', 'signedOut', CLEAR_SESSION(token));
    row(from, 'LOGOUT', `loggingOut${tab}`);
    if (!tab) row(from, 'OVERSTEP', 'overstepping');
    row(from, 'SERVER_LOGOUT', `confirmingLogout${tab}`);
    row(from, 'SESSION_EXPIRED', tab ? 'sessionExpired' : 'expiring');
  }
  row(`signedIn${tab}`, 'REFRESH_USER', `refreshing${tab}`);
  row(`refreshing${tab}`, 'done.actor.refreshUser', `signedIn${tab}`);
  // The toast already said why; the user info stays.
  row(`refreshing${tab}`, 'error.actor.refreshUser', `signedIn${tab}`);
  row(`confirmingLogout${tab}`, 'STAY', `signedIn${tab}`);
  row(`confirmingLogout${tab}`, 'RELOGIN', `loggingOut, reload${tab}`);

  // The server call may fail (token already gone): the session is cleared either way.
  for (const outcome of ['done', 'error']) {
    const event = `${outcome}.actor.logout`;
    row(`loggingOut${tab}`, event, 'signedOut', CLEAR_SESSION(token));
    row(`loggingOut, reload${tab}`, event, 'signedOut, reloaded', [
      ...CLEAR_SESSION(token),
      'reload',
    ]);
  }
}

row('expiring', 'after.1500.auth.expiring', 'loggingOut, reload');
// The dialog stays until the window closes.
row('sessionExpired', 'CONFIRM', 'sessionExpired', ['close window']);
for (const outcome of ['done', 'error']) {
  const event = `${outcome}.actor.logout`;
  row('loggingOut, user info failed', event, 'signedOut, user info failed', CLEAR_SESSION('local'));
}
