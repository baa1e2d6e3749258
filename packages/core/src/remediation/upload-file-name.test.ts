import { describe, expect, it } from 'vitest';
import { TEXTS } from '../texts';
import { uploadFileNameError } from './upload-file-name';

describe('uploadFileNameError', () => {
  it.each(['scan.csv', 'Qualys_2026-11-25.csv', 'a~b.CSV'])('accepts %s', (name) => {
    expect(uploadFileNameError(name)).toBeNull();
  });

  it.each(['my scan.csv', 'scan(1).csv', 'scän.csv', 'a/b.csv', ''])('refuses %j with the spec’s text', (name) => {
    expect(uploadFileNameError(name)).toBe(TEXTS.uploads.fileNameRule);
  });
});
