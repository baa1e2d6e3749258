import type { AgentCommandArgs, AgentCommandType } from '@patchwell/core/agent/agent-protocol.schema';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import type { ResultStatus } from '../db/policies.schema';
import type { CandidateDevice } from './engine.store';

/**
 * What a run does on each device, decided from the device's stored inventory: the
 * command to queue (if any), the patches selected, and the standing it leaves.
 */
export type DevicePlan = {
  device: CandidateDevice;
  /** The command that carries the policy out; null when there is nothing to do. */
  command: { type: AgentCommandType; args: AgentCommandArgs } | null;
  selected: string[];
  /** With no command: the result's final status and why. */
  status: ResultStatus;
  message: string | null;
  /** The standing without a command (with one, it is `pending` until the result). */
  standing: Compliance;
};

/** A patch waiting for approval under manual approval, with how many devices need it. */
export type ApprovalNeed = {
  name: string;
  version: string;
  severity: string;
  osFamily: string;
  cves: string[];
  devices: number;
};
