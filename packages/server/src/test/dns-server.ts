import { createServer, Packet } from 'dns2';

/**
 * A loopback DNS server (UDP, 127.0.0.1, a free port) for tests of domain verification. It
 * answers TXT questions from `records` (name → values), NXDOMAIN for other names, and can be
 * told to answer SERVFAIL or nothing at all (a timeout) for one name.
 */
// RFC 1035 response codes (dns2 has them as Packet.RCODE, which its typings lack).
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

export type TestDns = {
  /** `127.0.0.1:PORT`, for `DNS_SERVERS`. */
  server: string;
  /** TXT values by name (lower case, no trailing dot); set them as a test goes. */
  records: Map<string, string[][]>;
  /** Names answered SERVFAIL. */
  failing: Set<string>;
  /** Names never answered. */
  silent: Set<string>;
  /** Questions received, by name. */
  asked: string[];
  close(): Promise<void>;
};

export async function startTestDns(): Promise<TestDns> {
  const records = new Map<string, string[][]>();
  const failing = new Set<string>();
  const silent = new Set<string>();
  const asked: string[] = [];
  const dns = createServer({
    udp: { type: 'udp4' },
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      asked.push(name);
      if (silent.has(name)) return;
      if (failing.has(name)) {
        response.header.rcode = RCODE_SERVFAIL;
      } else if (!records.has(name)) {
        response.header.rcode = RCODE_NXDOMAIN;
      } else if (question?.type === Packet.TYPE.TXT) {
        for (const value of records.get(name)!) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 60,
            data: value,
          } as never);
        }
      }
      send(response);
    },
  });
  const addresses = await dns.listen({ udp: { port: 0, address: '127.0.0.1' } } as never);
  const port = (addresses as { udp: { port: number } }).udp.port;
  return {
    server: `127.0.0.1:${port}`,
    records,
    failing,
    silent,
    asked,
    close: async () => {
      await dns.close();
    },
  };
}
