/**
 * A card processor, should an installation ever take card payments: the shape billing would
 * call. Deliberately without an implementation: a self-hosted Patchwell is paid by invoice
 * (bank transfer) or purchase order, the console offers no card, and nothing here pretends to
 * charge one. An implementation belongs behind this type, with its own configuration.
 */
export type CardProcessor = {
  /** Charges `amountCents` in `currency` to the customer's stored card for the invoice `invoiceNumber`. */
  charge(input: {
    customerRef: string;
    invoiceNumber: string;
    amountCents: number;
    currency: 'USD';
  }): Promise<{ status: 'succeeded' | 'declined'; processorRef: string }>;
};
