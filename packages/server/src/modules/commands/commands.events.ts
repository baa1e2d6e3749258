import type { CommandResultBody } from '@patchwell/core/agent/agent-protocol.schema';
import type { Logger } from 'pino';
import type { CommandRow } from './commands.store';

/**
 * `commandFinished`: a command got its final status from its device's result, or was
 * canceled. The row is the stored one (after the write); `result` is what the agent said
 * (for a cancel, status `canceled` and nothing else). Timeouts of the sweep raise no event:
 * they come in thousands at once, and subscribers pick them up from the table (the policy
 * engine's tick copies command statuses onto its results).
 */
export type CommandFinished = { command: CommandRow; result: CommandResultBody; at: Date };

export type CommandFinishedHandler = (event: CommandFinished) => Promise<void>;

/** The in-process subscriber registry, one per app (created in app.ts). */
export type CommandEvents = {
  /** Subscribes `handler` under `name` (used in logs); returns the unsubscribe. */
  onCommandFinished(name: string, handler: CommandFinishedHandler): () => void;
  /**
   * Runs every handler in subscription order and waits for them, so an answer to the agent
   * means subscribers have seen its result. A handler's error is logged and never reaches
   * the caller: the result is stored, and each subscriber repairs misses from the table.
   */
  commandFinished(event: CommandFinished): Promise<void>;
};

export function createCommandEvents(logger: Pick<Logger, 'warn'>): CommandEvents {
  const handlers: { name: string; handler: CommandFinishedHandler }[] = [];
  return {
    onCommandFinished(name, handler) {
      const entry = { name, handler };
      handlers.push(entry);
      return () => {
        const i = handlers.indexOf(entry);
        if (i >= 0) handlers.splice(i, 1);
      };
    },
    async commandFinished(event) {
      for (const { name, handler } of [...handlers]) {
        try {
          await handler(event);
        } catch (err) {
          logger.warn(
            { err, commandId: event.command.id, subscriber: name },
            `${name} did not apply a command result; it repairs it on its next pass`,
          );
        }
      }
    },
  };
}
