import {
  PAYMENT_OPTION_LABELS,
  PAYMENT_OPTIONS,
  ZBillingInfoBody,
  type BillingOverview,
  type PaymentOption,
} from '@patchwell/core/billing/billing.schema';
import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import { Button, Group, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { notify } from '../../../ui/notify';
import { useUnsavedChangesPrompt } from '../../../ui/useUnsavedChangesPrompt';
import { saveBillingInfo } from '../billing.api';

type Fields = {
  address_line1: string;
  address_line2: string;
  city: string;
  company_name: string;
  zip_code: string;
  state: string;
  country: string;
  payment_option: PaymentOption | '';
  po_number: string;
};
type FieldName = keyof Fields;

const TEXT_FIELDS: { name: Exclude<FieldName, 'payment_option' | 'po_number'>; label: string; required: boolean }[] = [
  { name: 'company_name', label: T.company, required: true },
  { name: 'address_line1', label: T.address1, required: true },
  { name: 'address_line2', label: T.address2, required: false },
  { name: 'city', label: T.city, required: true },
  { name: 'zip_code', label: T.zip, required: true },
  { name: 'state', label: T.state, required: true },
  { name: 'country', label: T.country, required: true },
];

function initial(overview: BillingOverview): Fields {
  const i = overview.info;
  return {
    address_line1: i?.address_line1 ?? '',
    address_line2: i?.address_line2 ?? '',
    city: i?.city ?? '',
    company_name: i?.company_name ?? '',
    zip_code: i?.zip_code ?? '',
    state: i?.state ?? '',
    country: i?.country ?? '',
    payment_option: i?.payment_option ?? '',
    po_number: i?.po_number ?? '',
  };
}

export type BillingInfoFormProps = { zoneId: number; overview: BillingOverview; onSaved: () => void };

/**
 * The billing information form (spec B section 5): address lines, city, company, zip, state,
 * country and payment option, checked with the shared schema, so its texts are the spec's.
 */
export function BillingInfoForm({ zoneId, overview, onSaved }: BillingInfoFormProps) {
  const [saved, setSaved] = useState<Fields>(() => initial(overview));
  const [fields, setFields] = useState<Fields>(saved);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [isSaving, setSaving] = useState(false);
  const isDirty = JSON.stringify(fields) !== JSON.stringify(saved);
  useUnsavedChangesPrompt(isDirty);
  const canModify = overview.can_modify;

  const set = (name: FieldName, value: string) => {
    setFields((f) => ({ ...f, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZBillingInfoBody.safeParse({
      ...fields,
      payment_option: fields.payment_option || undefined,
      po_number: fields.payment_option === 'purchase_order' ? fields.po_number : '',
    });
    if (!parsed.success) {
      const flat = parsed.error.flatten().fieldErrors as Partial<Record<FieldName, string[]>>;
      setErrors(Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, v?.[0]])));
      return;
    }
    setSaving(true);
    try {
      await saveBillingInfo(zoneId, parsed.data);
      setSaved(fields);
      notify.success(T.infoSaved);
      onSaved();
    } catch (err) {
      const server = serverFieldErrors(err);
      if (Object.keys(server).length) setErrors(server as Partial<Record<FieldName, string>>);
      else notify.error(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="billing-info">
      <Stack gap="sm">
        <Title order={3} id="billing-info">
          {T.infoTitle}
        </Title>
        {!canModify && (
          <Text size="sm" c="dimmed">
            {T.readOnly}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.map((f) => (
            <TextInput
              key={f.name}
              label={f.label}
              required={f.required}
              value={fields[f.name]}
              onChange={(e) => set(f.name, e.currentTarget.value)}
              error={errors[f.name]}
              readOnly={!canModify}
            />
          ))}
        </SimpleGrid>
        <Radio.Group
          label={T.paymentOption}
          required
          value={fields.payment_option}
          onChange={(v) => set('payment_option', v)}
          error={errors.payment_option}
        >
          <Group mt="xs">
            {PAYMENT_OPTIONS.map((o) => (
              <Radio key={o} value={o} label={PAYMENT_OPTION_LABELS[o]} disabled={!canModify} />
            ))}
          </Group>
        </Radio.Group>
        {fields.payment_option === 'purchase_order' && (
          <TextInput
            label={T.poNumber}
            value={fields.po_number}
            onChange={(e) => set('po_number', e.currentTarget.value)}
            error={errors.po_number}
            readOnly={!canModify}
            maw={320}
          />
        )}
        {canModify && (
          <Group>
            <Button type="submit" loading={isSaving}>
              {T.save}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
