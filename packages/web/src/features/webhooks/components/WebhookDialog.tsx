import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  ZCreateWebhookBody,
  type Webhook,
  type WebhookEventType,
} from '@patchwell/core/webhooks/webhooks.schema';
import { Alert, Button, Checkbox, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { CONSOLE_TEXTS } from '../../../texts';
import { CopyValueButton } from '../../../ui/CopyValueButton';
import { notify } from '../../../ui/notify';
import { createWebhook, updateWebhook } from '../webhooks.api';

const T = CONSOLE_TEXTS.webhooks;

export type WebhookDialogProps = {
  opened: boolean;
  zoneId: number;
  /** The webhook to edit; none: create one. */
  webhook?: Webhook;
  /** A secret to show once (after "Rotate secret"), instead of the form. */
  secret?: string;
  onClose: () => void;
  onSaved: () => void;
};

/** Creates or edits a webhook (URL, events, enabled); after creating, shows the secret once. */
export function WebhookDialog(props: WebhookDialogProps) {
  const { opened, webhook, secret, onClose } = props;
  // The secret of a webhook just created: the dialog then names what it shows.
  const [created, setCreated] = useState<string | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  const title = secret || created ? T.secretLabel : webhook ? T.edit : T.create;
  // The body mounts on each opening, so its fields start from the webhook being edited.
  return (
    <Modal opened={opened} onClose={close} title={title} size="lg">
      {opened && <WebhookDialogBody {...props} onClose={close} onCreated={setCreated} />}
    </Modal>
  );
}

function WebhookDialogBody({
  zoneId,
  webhook,
  secret,
  onClose,
  onSaved,
  onCreated,
}: WebhookDialogProps & { onCreated: (secret: string) => void }) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(webhook?.event_types ?? []);
  const [isEnabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const [isSaving, setSaving] = useState(false);
  const [shownSecret, setShownSecret] = useState<string | null>(secret ?? null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZCreateWebhookBody.safeParse({ url, event_types: events, enabled: isEnabled });
    if (!parsed.success) {
      const flat = parsed.error.flatten().fieldErrors;
      setErrors({ url: flat.url?.[0], events: flat.event_types?.[0] });
      return;
    }
    setSaving(true);
    try {
      if (webhook) {
        await updateWebhook(zoneId, webhook.id, parsed.data);
        notify.success(T.saved);
        onSaved();
        onClose();
      } else {
        const created = await createWebhook(zoneId, parsed.data);
        setShownSecret(created.secret);
        onCreated(created.secret);
        onSaved();
      }
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields.url || fields.event_types) setErrors({ url: fields.url, events: fields.event_types });
      else notify.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  return shownSecret ? (
    <Stack gap="md">
      <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden="true" />} role="alert">
        {T.secretOnce}
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={T.secretLabel}
          value={shownSecret}
          readOnly
          ff="monospace"
          style={{ flex: 1 }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyValueButton value={shownSecret} label={T.copy} />
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>{T.done}</Button>
      </Group>
    </Stack>
  ) : (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="md">
        <TextInput
          label={T.url}
          description={T.urlDescription}
          required
          data-autofocus
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errors.url}
        />
        <Checkbox.Group
          label={T.events}
          required
          value={events}
          onChange={(v) => setEvents(v as WebhookEventType[])}
          error={errors.events}
        >
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={WEBHOOK_EVENT_LABELS[type]} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch label={T.enabled} checked={isEnabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {CONSOLE_TEXTS.common.cancel}
          </Button>
          <Button type="submit" loading={isSaving}>
            {webhook ? CONSOLE_TEXTS.common.save : T.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
