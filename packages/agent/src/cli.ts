/**
 * The endpoint agent's command line. Enrolment, check-in, inventory and commands arrive
 * with the devices issue; until then the agent answers for its version and usage only.
 */
import { PRODUCT_NAME } from '@patchwell/core/constants';

export const AGENT_VERSION = '0.1.0';

const USAGE = `${PRODUCT_NAME} agent ${AGENT_VERSION}

Usage: patchwell-agent <command>

Commands:
  version     print the agent version
  help        show this text

Enrolment (enroll), the service (run) and status arrive with the devices release.`;

export function main(argv: string[]): number {
  const [command = 'help'] = argv;
  switch (command) {
    case 'version':
    case '--version':
      console.log(AGENT_VERSION);
      return 0;
    case 'help':
    case '--help':
      console.log(USAGE);
      return 0;
    default:
      console.error(`Unknown command: ${command}\n\n${USAGE}`);
      return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
