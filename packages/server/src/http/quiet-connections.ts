import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closes, when the app closes, the connections that never sent a request. An HTTP client's
 * pool may open a connection it then does not use (its request was aborted while the
 * connection was being made); Node 20 counts such a connection as waiting for headers, not
 * idle, so `server.close()` would wait for the headers timeout (60 s) before finishing.
 * Connections with a request in flight are left to finish, and idle keep-alive connections
 * are closed by Node itself.
 */
export function closeQuietConnectionsOnClose(app: FastifyInstance): void {
  const quiet = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    quiet.add(socket);
    socket.once('close', () => quiet.delete(socket));
  });
  const spoke = (request: { socket: Socket }) => quiet.delete(request.socket);
  app.server.on('request', spoke);
  app.server.on('upgrade', spoke);
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of quiet) socket.destroy();
    quiet.clear();
    done();
  });
}
