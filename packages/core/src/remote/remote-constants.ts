/**
 * Remote sessions' constants without zod (decision 0016): the agent imports these, and its
 * bundle stays free of the schema library.
 */

/**
 * The close code of a tunnel the device's user ended (the agent's "End session"): the server
 * records the end as the user's and passes the code on to the console.
 */
export const REMOTE_CLOSE_ENDED_BY_USER = 4001;
/** The text that goes with it. */
export const REMOTE_ENDED_BY_USER_TEXT = 'The user of the device ended the session.';

/**
 * The close code of a tunnel refused because the device is installing what remote control
 * needs (x11vnc on Linux): the console shows `installing`; a later Connect finds it ready.
 */
export const REMOTE_CLOSE_INSTALLING = 4002;
/** A session's end reason then. */
export const REMOTE_END_INSTALLING = 'installing';

export const REMOTE_IDLE_MINUTES_DEFAULT = 15;
/** Device groups a zone may list for unattended access. */
export const REMOTE_UNATTENDED_GROUPS_MAX = 500;
export const REMOTE_IDLE_MINUTES_MIN = 1;
export const REMOTE_IDLE_MINUTES_MAX = 240;
