import { describe, expect, it } from 'vitest';
import { fixture } from '../platform/fixtures/fixtures.js';
import { reportOf } from './notifier.js';
import {
  consoleUserOf,
  msgFailureOf,
  parseOsascriptAnswer,
  parseSessionIds,
  parseShowSessions,
  parseWho,
  parseZenityAnswer,
  pickSessions,
} from './notify.parsers.js';

describe('loginctl sessions', () => {
  it('reads the session ids whatever columns follow', () => {
    expect(parseSessionIds(fixture('loginctl-list-sessions.txt'))).toEqual(['2', '14', 'c1']);
    expect(parseSessionIds('')).toEqual([]);
    expect(parseSessionIds('     3 1000 ana seat0 1234 user tty2 no -\n')).toEqual(['3']);
  });

  it('picks the user’s desktop session, keeps terminal ones, and ignores the login screen', () => {
    const sessions = parseShowSessions(fixture('loginctl-show-session.txt'));
    expect(sessions).toHaveLength(3);
    const { graphical, terminals } = pickSessions(sessions);
    expect(graphical).toMatchObject({ id: '2', name: 'alice', uid: 1000, type: 'wayland', active: true });
    expect(terminals.map((s) => s.name)).toEqual(['bob']);
    expect(pickSessions(sessions.filter((s) => s.class === 'greeter'))).toEqual({ graphical: null, terminals: [] });
  });

  it('lists terminal users from who when logind is missing', () => {
    expect(
      parseWho(
        'bob      pts/0        2026-11-21 17:00 (10.0.0.5)\nbob      pts/1        2026-11-21 17:02\nana tty1 2026-11-21 08:00\n',
      ),
    ).toEqual(['bob', 'ana']);
    expect(parseWho('')).toEqual([]);
  });

  it('reads an X11 session’s display', () => {
    const [carol] = parseShowSessions(fixture('loginctl-show-session-x11.txt'));
    expect(carol).toMatchObject({ name: 'carol', uid: 1002, type: 'x11', display: ':1' });
  });
});

describe('dialog answers', () => {
  it('reads zenity’s exit codes and deferral buttons', () => {
    expect(parseZenityAnswer(0, '', [1, 4, 8])).toEqual({ answer: 'proceed' });
    expect(parseZenityAnswer(5, '', [1, 4, 8])).toEqual({ answer: 'timeout' });
    expect(parseZenityAnswer(1, 'Defer 8 h\n', [1, 4, 8])).toEqual({ answer: 'defer', deferH: 8 });
    // The cancel button carries the shortest deferral (closing the window means the same).
    expect(parseZenityAnswer(1, '', [4, 1, 8])).toEqual({ answer: 'defer', deferH: 1 });
    expect(parseZenityAnswer(1, '', [])).toEqual({ answer: 'proceed' });
    expect(parseZenityAnswer(255, '', [1])).toBeNull();
  });

  it('reads the AppleScript’s answer', () => {
    expect(parseOsascriptAnswer('proceed\n')).toEqual({ answer: 'proceed' });
    expect(parseOsascriptAnswer('timeout\n')).toEqual({ answer: 'timeout' });
    expect(parseOsascriptAnswer('Defer 4 h\n')).toEqual({ answer: 'defer', deferH: 4 });
    expect(parseOsascriptAnswer('execution error: -1743')).toBeNull();
  });

  it('knows when nobody is at the Mac’s console, and why msg.exe failed', () => {
    expect(consoleUserOf('alice\n')).toBe('alice');
    expect(consoleUserOf('root\n')).toBeNull();
    expect(consoleUserOf('_mbsetupuser')).toBeNull();
    expect(msgFailureOf('No session exists for *\n', 1)).toBe('no signed-in user');
    expect(msgFailureOf('Error 5 getting session names\n', 1)).toBe(
      'msg.exe failed (exit 1): Error 5 getting session names',
    );
  });
});

describe('reportOf', () => {
  const deferral = { periods_h: [1, 4, 8], remaining: 3, max: 6, auto_defer: false };

  it('goes ahead after a timeout, or defers by the longest period when the policy auto-defers', () => {
    expect(reportOf({ shown: true, answer: 'timeout' }, deferral)).toEqual({
      shown: true,
      choice: 'proceed',
      timed_out: true,
    });
    expect(reportOf({ shown: true, answer: 'timeout' }, { ...deferral, auto_defer: true })).toEqual({
      shown: true,
      choice: 'defer',
      defer_h: 8,
      timed_out: true,
    });
  });

  it('only ever defers by an offered period, and never without a deferral', () => {
    expect(reportOf({ shown: true, answer: 'defer', deferH: 4 }, deferral)).toMatchObject({ defer_h: 4 });
    expect(reportOf({ shown: true, answer: 'defer', deferH: 3 }, deferral)).toMatchObject({ defer_h: 8 });
    expect(reportOf({ shown: true, answer: 'defer', deferH: 4 }, null)).toEqual({ shown: true, choice: 'proceed' });
    expect(reportOf({ shown: false, reason: 'no signed-in user' }, deferral)).toEqual({
      shown: false,
      reason: 'no signed-in user',
    });
  });
});
