import type { FastifyReply } from 'fastify';
import type { Answer } from '../modules/idempotency/idempotency.service';

/** Sends an `idempotent()` answer: its status and body, marked `Idempotent-Replayed` when it is the first answer again. */
export function sendIdempotent<T>(reply: FastifyReply, answer: Answer<T>): FastifyReply {
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).send(answer.body);
}
