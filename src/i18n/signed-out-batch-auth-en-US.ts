/**
 * The en-US messages of the public batch authorisation page (/batchAuthorization, no login;
 * src/views/matrix/batch-authorization-page.tsx): a catalogue part of its own (src/i18n/messages.ts
 * `batch-auth`), loaded with that page only, so the login page does not carry it.
 */
const batchAuthEnUS = {
  'batchAuth.title': 'Authorise your account',
  'batchAuth.whose': '{owner} asks you to authorise your {platform} account.',
  'batchAuth.grants':
    'If you authorise, {owner} may publish videos in your name on {platform} and read their numbers (views, likes, comments). You can withdraw this on {platform} at any time.',
  'batchAuth.details': 'About this link',
  'batchAuth.owner': 'Your account will be linked to',
  'batchAuth.platform': 'Platform',
  'batchAuth.expires': 'Valid until',
  'batchAuth.usesLeft': 'Accounts that may still be authorised',
  'batchAuth.noLimit': 'No limit',
  'batchAuth.authorise': 'Authorise with {platform}',
  'batchAuth.reasonExpired': 'This link has expired: ask whoever sent it for a new one.',
  'batchAuth.reasonRevoked': 'This link was withdrawn by whoever sent it.',
  'batchAuth.reasonUsedUp': 'This link has been used as many times as it allows.',
  'batchAuth.boundTo': 'Your account is now linked to {owner}. You may close this page.',
  'batchAuth.boundDone': 'Your account is now linked. You may close this page.',
  'batchAuth.noToken':
    'This address holds no authorisation link: open the whole link you were sent.',
  'batchAuth.errorStateInvalid':
    'This authorisation expired or was already used: press “Authorise” to start again.',
  'batchAuth.errorDeclined': 'The authorisation was declined on the platform.',
  'batchAuth.errorBoundElsewhere':
    'This account is already linked to someone else: it must be unlinked there first.',
  'batchAuth.errorNotConfigured': 'Authorisation on this platform is not set up yet.',
  'batchAuth.errorExpired': 'This link expired before the account could be linked.',
  'batchAuth.errorRevoked': 'This link was withdrawn before the account could be linked.',
  'batchAuth.errorUsedUp': 'This link was used up before the account could be linked.',
  'batchAuth.errorFailed': 'The authorisation failed: please try again.',
  'batchAuth.platformDouyin': 'Douyin',
  'batchAuth.platformKuaishou': 'Kuaishou',
  'batchAuth.platformXiaohongshu': 'Xiaohongshu',
  'batchAuth.platformChannels': 'WeChat Channels',
} as const;

export default batchAuthEnUS;
