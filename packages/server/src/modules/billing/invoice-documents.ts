import { stringify } from 'csv-stringify/sync';
import { PAYMENT_OPTION_LABELS, type InvoiceDetail } from '@patchwell/core/billing/billing.schema';
import { formatCents, formatUnitPrice } from '@patchwell/core/billing/pricing';
import { csvCell } from '@patchwell/core/rules/csv-cell';

/** An invoice as the files a customer downloads: PDF (pdfkit, in memory) and CSV. */

/** `PW-12-202603.pdf` / `.csv`. */
export function invoiceFileName(invoice: InvoiceDetail, ext: 'pdf' | 'csv'): string {
  return `${invoice.number}.${ext}`;
}

const CSV_HEADER = ['Line', 'Description', 'Device-days', 'Unit price (USD per device-day)', 'Amount (USD)'];

const dollars = (cents: number) => (cents / 100).toFixed(2);
const unitDollars = (unit: number) => (unit / 10000).toFixed(4);

/** The invoice's lines as CSV: one row per numbered line, then the total. */
export function invoiceCsv(invoice: InvoiceDetail): string {
  const rows = invoice.lines.map((l) => [
    String(l.line_no),
    csvCell(l.description),
    String(l.quantity),
    unitDollars(l.unit_price),
    dollars(l.amount_cents),
  ]);
  rows.push(['', 'Total', String(invoice.device_days), '', dollars(invoice.total_cents)]);
  return stringify([CSV_HEADER, ...rows]);
}

/** The invoice as a one-page PDF: issuer, bill-to, period, the numbered lines and the total. */
export async function invoicePdf(invoice: InvoiceDetail, zoneName: string): Promise<Buffer> {
  // Loaded with the first invoice asked for as PDF: pdfkit took 115 ms of every server start.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Invoice ${invoice.number}`, Author: 'Patchwell' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.fontSize(20).text(`Invoice ${invoice.number}`);
  doc.moveDown(0.5).fontSize(10);
  doc.text(`Zone: ${zoneName}`);
  doc.text(`Period: ${invoice.period_start} to ${invoice.period_end}`);
  doc.text(`Issued: ${invoice.issued_at.slice(0, 10)}`);
  doc.text(`Payment: ${invoice.payment_option ? PAYMENT_OPTION_LABELS[invoice.payment_option] : 'Not chosen'}`);
  if (invoice.bill_to) {
    const b = invoice.bill_to;
    doc.moveDown(0.5).text('Bill to:');
    for (const line of [
      b.company_name,
      b.address_line1,
      b.address_line2,
      `${b.zip_code} ${b.city}, ${b.state}`,
      b.country,
      b.po_number ? `Purchase order: ${b.po_number}` : '',
    ])
      if (line) doc.text(line);
  }
  doc.moveDown();
  doc.table({
    columnStyles: [30, 250, 70, 75, 70],
    data: [
      ['#', 'Description', 'Device-days', 'Unit price', 'Amount'],
      ...invoice.lines.map((l) => [
        String(l.line_no),
        l.description,
        String(l.quantity),
        formatUnitPrice(l.unit_price),
        formatCents(l.amount_cents),
      ]),
      ['', 'Total', String(invoice.device_days), '', formatCents(invoice.total_cents)],
    ],
  });
  doc.moveDown();
  doc
    .fontSize(8)
    .text(
      'A device is billed for each day on which it checked in; prices are per device per month, a device-month ' +
        'being 365/12 days.',
    );
  doc.end();
  return done;
}
