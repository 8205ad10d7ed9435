/**
 * The en-US messages of the audit log viewer (/account/audit, src/views/account/audit-*.tsx):
 * loaded with its view (src/app/routes/page-views.ts).
 */
const signedInAuditEnUS = {
  'audit.filters': 'Audit log filters',
  'audit.actor': 'Actor (ID or username)',
  'audit.action': 'Action',
  'audit.resourceType': 'Resource type',
  'audit.resourceId': 'Resource ID',
  'audit.from': 'From',
  'audit.to': 'To',
  'audit.rangeInverted': 'The start date is after the end date',
  'audit.list': 'Audit log',
  'audit.empty': 'No audit records match these filters',
  'audit.time': 'Time',
  'audit.role': 'Role',
  'audit.target': 'Target',
  'audit.result': 'Result',
  'audit.ip': 'IP',
  'audit.changes': 'Changes',
  'audit.ok': 'OK',
  'audit.refused': 'Refused',
  'audit.anonymous': 'Anonymous',
  'audit.onBehalf': 'by {name} (login as)',
  'audit.noChanges': 'No field changes',
  'audit.showChanges': 'Show changes ({count})',
  'audit.hideChanges': 'Hide changes',
  'audit.changesOf': 'Changes of record {id}',
  'audit.field': 'Field',
  'audit.before': 'Before',
  'audit.after': 'After',
  'audit.changed': 'changed',
  'audit.empty.value': '(empty)',
  'audit.timelineFor': 'Timeline of {type} {id}',
  'audit.timelineForType': 'Timeline of {type}',
  'audit.showAll': 'Show all records',
  'audit.export': 'Export CSV',
  'audit.exportPreparing': 'Preparing the export…',
  'audit.exportDownloading': 'Downloading {count} records…',
  'audit.exportStarted': 'The download has started',
} as const;

export default signedInAuditEnUS;
