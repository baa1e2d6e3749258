import type { AgentCommandArgs } from '@patchwell/core/agent/agent-protocol.schema';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import { approvalKey } from '@patchwell/core/policies/patch-selection';
import type { RunTrigger } from '../db/policies.schema';
import { findPatchesByDevice, findSoftwareNamed, type CandidateDevice, type PolicyRow, type Tx } from './engine.store';
import { addNotices } from './notices';
import type { ApprovalNeed, DevicePlan } from './plan-types';
import { findApprovalDecisions, findEvaluationExitCodes } from './plans.store';
import { customPolicyScripts, needsSoftware, requiredSoftwareOf, selectPatchesFor } from './targets';

/** Most update names in one `install_updates` (the protocol's limit). */
const NAMES_MAX = 1000;

function nothingToDo(device: CandidateDevice, message: string, standing: Compliance = 'compliant'): DevicePlan {
  return { device, command: null, selected: [], status: 'success', message, standing };
}

function patchKey(name: string, version: string): string {
  return approvalKey({ name, version });
}

/** `install_updates` with these names (at most the protocol's limit), or nothing to do without any. */
function installPlan(device: CandidateDevice, names: string[], message: string | null): DevicePlan {
  const unique = [...new Set(names)].slice(0, NAMES_MAX);
  if (!unique.length) return nothingToDo(device, 'No patches for this policy to install.');
  return {
    device,
    command: { type: 'install_updates', args: { names: unique } },
    selected: unique,
    status: 'pending',
    message,
    standing: 'pending',
  };
}

/** Patch policies: `install_updates` with the names the policy selects; manual approval installs only approved ones. */
async function planPatch(tx: Tx, policy: PolicyRow, targeted: CandidateDevice[], now: Date) {
  const ids = targeted.map((d) => d.id);
  // patch_all never comes here: dispatch.ts hands it to the set-based dispatch-all.ts.
  const byDevice = await findPatchesByDevice(tx, ids);
  const isManual = policy.configuration.patch_rule === 'manual';
  const decided = new Map<string, 'approved' | 'rejected' | 'pending'>();
  if (isManual) {
    const rows = await findApprovalDecisions(tx, policy.id);
    for (const r of rows) decided.set(patchKey(r.name, r.version), r.status);
  }
  const needs = new Map<string, ApprovalNeed>();
  const approved = new Set([...decided].filter(([, status]) => status === 'approved').map(([key]) => key));
  const plans = targeted.map((device): DevicePlan => {
    const available = byDevice.get(device.id) ?? [];
    // Under manual approval every available patch is a candidate; only approved ones install.
    const candidates = isManual ? available : selectPatchesFor(policy, available, device, now);
    if (!candidates.length) return nothingToDo(device, 'No patches for this policy to install.');
    const install = isManual ? selectPatchesFor(policy, available, device, now, approved) : candidates;
    let waiting = 0;
    if (isManual) {
      for (const p of candidates) {
        const key = patchKey(p.name, p.version);
        if (decided.get(key) === 'approved' || decided.get(key) === 'rejected') continue;
        waiting++;
        const need = needs.get(key) ?? {
          name: p.name,
          version: p.version,
          severity: p.severity,
          osFamily: device.osFamily,
          cves: p.cves,
          devices: 0,
        };
        need.devices++;
        needs.set(key, need);
      }
    }
    if (!install.length) {
      return nothingToDo(device, `${waiting} patch(es) wait for approval; nothing approved to install.`, 'pending');
    }
    return installPlan(
      device,
      install.map((p) => p.name),
      waiting ? `${waiting} more patch(es) wait for approval.` : null,
    );
  });
  return { plans, approvals: [...needs.values()] };
}

/** Required software: `install_package` on devices where it is missing (at the version, when one is given). */
async function planRequiredSoftware(tx: Tx, policy: PolicyRow, targeted: CandidateDevice[]) {
  const software = requiredSoftwareOf(policy);
  if (!software) return targeted.map((d) => nothingToDo(d, 'The policy names no package.', 'needs_attention'));
  const installed = await findSoftwareNamed(
    tx,
    targeted.map((d) => d.id),
    software.package_name,
  );
  const byDevice = new Map<number, { name: string; version: string }[]>();
  for (const s of installed) byDevice.set(s.deviceId, [...(byDevice.get(s.deviceId) ?? []), s]);
  return targeted.map((device): DevicePlan => {
    if (!needsSoftware(software, byDevice.get(device.id) ?? [])) {
      return nothingToDo(device, `${software.package_name} is installed.`);
    }
    const args: AgentCommandArgs = { package: software.package_name };
    if (software.package_version.toLowerCase() !== 'latest') args.version = software.package_version;
    // An uploaded installer replaces the package manager: the agent downloads it and runs the command.
    if (software.installer) {
      const { id, name, sha256, size_bytes } = software.installer;
      args.installer = { id, name, sha256, size_bytes };
      args.install_command = software.installation_code ?? '';
    }
    return {
      device,
      command: { type: 'install_package', args },
      selected: [software.package_name],
      status: 'pending',
      message: null,
      standing: 'pending',
    };
  });
}

/**
 * Worklets: `run_script` with the remediation code. "Run now" remediates every targeted
 * device (as the product family does); a scheduled run skips devices whose last
 * evaluation exited 0.
 */
async function planCustom(tx: Tx, policy: PolicyRow, targeted: CandidateDevice[], trigger: RunTrigger) {
  const compliant = new Set<number>();
  if (trigger !== 'manual') {
    const rows = await findEvaluationExitCodes(
      tx,
      policy.id,
      targeted.map((d) => d.id),
    );
    for (const r of rows) if (r.exit === 0) compliant.add(r.deviceId);
  }
  return targeted.map((device): DevicePlan => {
    if (compliant.has(device.id)) return nothingToDo(device, 'Compliant: the evaluation exited 0.');
    const scripts = customPolicyScripts(policy, device);
    if (!scripts.remediation) return nothingToDo(device, 'The worklet has no remediation code.', 'needs_attention');
    return {
      device,
      command: {
        type: 'run_script',
        args: { language: scripts.language, script: scripts.remediation, purpose: 'remediate' },
      },
      selected: [],
      status: 'pending',
      message: null,
      standing: 'pending',
    };
  });
}

/** Each targeted device's plan for this policy, and (manual approval) the patches waiting for a decision. */
export async function planRun(
  tx: Tx,
  policy: PolicyRow,
  targeted: CandidateDevice[],
  trigger: RunTrigger,
  now: Date,
): Promise<{ plans: DevicePlan[]; approvals: ApprovalNeed[] }> {
  switch (policy.type) {
    case 'patch': {
      const planned = await planPatch(tx, policy, targeted, now);
      await addNotices(tx, policy, planned.plans);
      return planned;
    }
    case 'required_software':
      return { plans: await planRequiredSoftware(tx, policy, targeted), approvals: [] };
    case 'custom': {
      const plans = await planCustom(tx, policy, targeted, trigger);
      await addNotices(tx, policy, plans);
      return { plans, approvals: [] };
    }
    default:
      return { plans: [], approvals: [] };
  }
}
