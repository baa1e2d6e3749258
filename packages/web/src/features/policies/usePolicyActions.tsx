import type { Policy } from '@patchwell/core/policies/policies.schema';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isFeatureOn, type Can } from '../../app/access';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { confirmAction } from '../../ui/confirm';
import { notify } from '../../ui/notify';
import { CloneDialog } from './components/CloneDialog';
import { ExecutionBanner } from './components/ExecutionBanner';
import { deletePolicy, policyKeys, runPolicy } from './policies.api';
import { POLICY_TEXTS as T } from './policies.texts';
import { POLICY_RESOURCE } from './policies.types';

type PolicyRef = Pick<Policy, 'id' | 'name' | 'policy_type_name'>;

export type PolicyActions = {
  canRun: (p: PolicyRef) => boolean;
  canClone: (p: PolicyRef) => boolean;
  canDelete: (p: PolicyRef) => boolean;
  runNow: (p: PolicyRef) => void;
  clone: (p: PolicyRef) => void;
  remove: (p: PolicyRef, options?: { thenGoToList?: boolean }) => void;
  /** The execution banner of the last 'Run now', if any. */
  banner: ReactNode;
  /** The clone dialog. */
  dialogs: ReactNode;
};

/**
 * Run now (confirm, then the execution banner), clone (behind the clone-policy flag) and
 * delete (confirm), each gated by its permission on the policy's type.
 */
export function usePolicyActions(zoneId: number, can: Can): PolicyActions {
  const { profile } = useShell();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [run, setRun] = useState<{ policyId: number; runId: number } | null>(null);
  const [cloning, setCloning] = useState<PolicyRef | null>(null);
  const onCloseClone = useCallback(() => setCloning(null), []);

  const runNow = (p: PolicyRef) =>
    confirmAction({
      title: T.runNowTitle,
      message: p.policy_type_name === 'custom' ? T.runNowWorkletBody(p.name) : T.runNowBody(p.name),
      confirmLabel: T.runNow,
      onConfirm: () =>
        void runPolicy(zoneId, p.id).then(
          ({ run: started }) => {
            setRun({ policyId: p.id, runId: started.id });
            notify.success(T.runStarted(p.name));
            void queryClient.invalidateQueries({ queryKey: policyKeys.all });
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  const remove: PolicyActions['remove'] = (p, options) =>
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteBody(p.name),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deletePolicy(zoneId, p.id).then(
          async () => {
            notify.success(T.deleted(p.name));
            if (options?.thenGoToList) await navigate(withZone(PATHS.policiesHome, zoneId));
            await queryClient.invalidateQueries({ queryKey: policyKeys.all });
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  const resource = (p: PolicyRef) => POLICY_RESOURCE[p.policy_type_name];
  return {
    canRun: (p) => can(resource(p), 'execute'),
    canClone: (p) => isFeatureOn(profile, 'clone_policy') && can(resource(p), 'create'),
    canDelete: (p) => can(resource(p), 'delete'),
    runNow,
    clone: setCloning,
    remove,
    banner: run && (
      <ExecutionBanner
        key={run.runId}
        zoneId={zoneId}
        policyId={run.policyId}
        runId={run.runId}
        onDismiss={() => setRun(null)}
      />
    ),
    dialogs: <CloneDialog zoneId={zoneId} policy={cloning} onClose={onCloseClone} />,
  };
}
