/**
 * The fix a pending patch belongs to, for grouping a batch's remediations: one task per fix
 * (an "openssl" update, a month's cumulative update for one Windows product, a macOS update),
 * not per version string. Agents name a patch with what varies per device (its KB number,
 * the version it installs, Apple's build number); those parts are dropped here, and each
 * device's job still installs the exact patches it reported (decision 0014).
 */

const RULES: [RegExp, string][] = [
  // "(KB5041234)", "(Version 1.421.123.0)"
  [/\s*\((?:KB\d+|Version [^)]*)\)/gi, ''],
  // "… Antivirus - KB2267602"
  [/\s*-\s*KB\d+\b/gi, ''],
  // Apple's build after the version: "macOS Sequoia 15.1.2-24B55"
  [/-\d+[A-Z]\d+[a-z]?$/, ''],
  // A trailing version: "macOS Sequoia 15.1.2", "Safari…Auto-18.2", "Tool x64 - v5.125"
  [/[\s-]+v?\d+(?:\.\d+)+$/i, ''],
  // A version glued between words: "Safari18.2SequoiaAuto"
  [/(?<=[A-Za-z])\d+(?:\.\d+)+(?=[A-Z])/g, ''],
  // A content build number: "XProtectPlistConfigData_10_15-5280" (4+ digits, so "gcc-12" stays)
  [/-\d{4,}$/, ''],
  [/[\s-]+$/, ''],
];

/** The fix `patchName` is a version of; the name itself when nothing in it varies by version. */
export function fixOfPatch(patchName: string): string {
  let name = patchName.trim();
  for (const [pattern, replacement] of RULES) name = name.replace(pattern, replacement);
  return name || patchName.trim();
}
