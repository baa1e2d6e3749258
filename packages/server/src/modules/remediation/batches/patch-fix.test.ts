import { describe, expect, it } from 'vitest';
import { fixOfPatch } from './patch-fix';

/** Names as agents report them (the simulator's shapes, from Windows Update, softwareupdate, apt). */
describe('fixOfPatch', () => {
  it.each([
    [
      '2026-10 Cumulative Update for Windows 11 for x64-based Systems (KB5041234)',
      '2026-10 Cumulative Update for Windows 11 for x64-based Systems',
    ],
    [
      '2026-10 Cumulative Update for .NET Framework 3.5, 4.8 and 4.8.1 for Windows Server 2022 (KB5041111)',
      '2026-10 Cumulative Update for .NET Framework 3.5, 4.8 and 4.8.1 for Windows Server 2022',
    ],
    [
      'Security Intelligence Update for Microsoft Defender Antivirus - KB2267602 (Version 1.421.123.0)',
      'Security Intelligence Update for Microsoft Defender Antivirus',
    ],
    ['Windows Malicious Software Removal Tool x64 - v5.125 (KB890830)', 'Windows Malicious Software Removal Tool x64'],
    ['macOS Sequoia 15.1.2-24B55', 'macOS Sequoia'],
    ['Safari18.2SequoiaAuto-18.2', 'SafariSequoiaAuto'],
    ['XProtectPlistConfigData_10_15-5280', 'XProtectPlistConfigData_10_15'],
  ])('drops what varies per device: %s', (name, fix) => {
    expect(fixOfPatch(name)).toBe(fix);
  });

  it.each(['openssl', 'gcc-12', 'python3.11', 'linux-image-6.8.0-48-generic', 'Google Chrome', 'libssl3'])(
    'keeps a package name whole: %s',
    (name) => {
      expect(fixOfPatch(name)).toBe(name);
    },
  );
});
