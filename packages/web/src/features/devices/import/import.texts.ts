import { HOST_IMPORT_MAX_ROWS } from '@patchwell/core/devices/host-imports.schema';

/**
 * Texts of the third-party import (add devices → Third-party import). The spec names the
 * menu item only; the rest is ours, kept here beside the dialog rather than in the shared
 * catalogue so the feature can move as one folder.
 */
export const IMPORT_TEXTS = {
  title: 'Third-party Import',
  tabUpload: 'Upload CSV',
  tabAwaiting: (count: number | undefined) => (count === undefined ? 'Awaiting agent' : `Awaiting agent (${count})`),
  intro:
    'Import hosts from a CSV file exported from another tool (Active Directory, an RMM, a spreadsheet). ' +
    'Each host waits for its agent; when the agent enrols, the device joins the group and gets the tags and notes from the file.',
  columns:
    'Columns by header: hostname (required; also host, name, computer name, device name), ip, os, group ' +
    '(an existing group of this zone; empty for the default group), tags (separated by ; or |), serial, notes. ' +
    `At most 1 MiB and ${HOST_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows.`,
  template: 'Download template',
  templateFileName: 'patchwell-hosts-template.csv',
  file: 'CSV file',
  filePlaceholder: 'Choose a .csv file',
  tooLarge: 'The file is larger than 1 MiB. Split it into smaller files.',
  checking: 'Checking the file…',
  summary: {
    new: (n: number) => `${n} to import`,
    matches_device: (n: number) => `${n} already enrolled`,
    duplicate: (n: number) => `${n} duplicate`,
    error: (n: number) => `${n} with errors`,
  },
  ignoredColumns: (names: string[]) => `Columns not imported: ${names.join(', ')}.`,
  onlyProblems: 'Show only rows that will not be imported',
  shownRows: (shown: number, total: number) => `Showing ${shown} of ${total} rows.`,
  table: {
    caption: 'Rows of the file and what the import will do with them',
    line: 'Line',
    hostname: 'Host name',
    os: 'OS',
    group: 'Group',
    tags: 'Tags',
    status: 'Status',
    messages: 'Messages',
  },
  status: {
    new: 'New',
    matches_device: 'Already enrolled',
    duplicate: 'Duplicate',
    error: 'Error',
  } as Record<string, string>,
  defaultGroup: 'Default group',
  submitIdle: 'Import',
  submit: (n: number) => (n === 1 ? 'Import 1 host' : `Import ${n} hosts`),
  nothingToImport: 'Nothing to import',
  imported: (n: number, skipped: number) =>
    `${n === 1 ? '1 host' : `${n} hosts`} imported; ${n === 1 ? 'it waits' : 'they wait'} for the agent.` +
    (skipped ? ` ${skipped} ${skipped === 1 ? 'row was' : 'rows were'} skipped.` : ''),
  awaitingIntro:
    'These hosts wait for their agent. Install it with the command under Manual import; ' +
    'a host whose name matches (short name or FQDN) joins its group when it enrols.',
  showInstall: 'Show install commands',
  awaitingEmpty: 'No imported host is waiting for its agent.',
  awaitingCaption: 'Imported hosts awaiting their agent',
  importedAt: 'Imported',
  remove: (host: string) => `Remove ${host}`,
  removeTitle: 'Remove imported host',
  removeMessage: (host: string) =>
    `Remove ${host} from the imported hosts? An agent that enrols later joins the default group.`,
  removeConfirm: 'Remove',
  removed: (host: string) => `${host} removed.`,
  moreAwaiting: (shown: number, total: number) => `Showing the newest ${shown} of ${total}.`,
};
