import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/client';

/** Where services get the time. Tests pass one they can move forward. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** Outgoing mail (a nodemailer transport satisfies it); used by later issues for invites and resets. */
export type Mailer = {
  sendMail(message: {
    to: string;
    subject: string;
    text: string;
    html?: string;
    attachments?: { filename: string; contentType: string; content: string }[];
  }): Promise<unknown>;
};

/** What every service function receives: no globals, so tests build their own. */
export type AppContext = {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  mailer?: Mailer;
};
