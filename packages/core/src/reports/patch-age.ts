import { ONE_DAY_MS } from '../constants';

/**
 * How long a pending patch has been out (spec B section 9's outstanding patch age buckets:
 * under 15 days, 16-30, 31-60, 61-89, 90+), counted in whole days since the vendor published
 * it (`device_patches.published_at`). The spec's first bucket ends where the second starts at
 * 16, so day 15 counts as "under 15": every whole day falls in exactly one bucket. A patch
 * the agent reported without a publication date has no age (`unknown`).
 */
export const PATCH_AGE_BUCKETS = ['0-15', '16-30', '31-60', '61-89', '90+'] as const;
export type PatchAgeBucket = (typeof PATCH_AGE_BUCKETS)[number];
/** A bucket, or `unknown` for a patch without a publication date. */
export type PatchAge = PatchAgeBucket | 'unknown';

/** Each bucket's first and last day (null: no end). The SQL of the prepatch report is built from these. */
export const PATCH_AGE_BOUNDS: Record<PatchAgeBucket, { min: number; max: number | null }> = {
  '0-15': { min: 0, max: 15 },
  '16-30': { min: 16, max: 30 },
  '31-60': { min: 31, max: 60 },
  '61-89': { min: 61, max: 89 },
  '90+': { min: 90, max: null },
};

export const PATCH_AGE_LABELS: Record<PatchAge, string> = {
  '0-15': 'Under 15 days',
  '16-30': '16-30 days',
  '31-60': '31-60 days',
  '61-89': '61-89 days',
  '90+': '90+ days',
  unknown: 'Unknown age',
};

/** Whole days between publication and `now`; a date in the future counts as 0. */
export function patchAgeDays(publishedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - publishedAt.getTime()) / ONE_DAY_MS));
}

/** The bucket of a patch published at `publishedAt` (null: unknown) as of `now`. */
export function patchAgeBucket(publishedAt: Date | null, now: Date): PatchAge {
  if (!publishedAt) return 'unknown';
  const days = patchAgeDays(publishedAt, now);
  for (const bucket of PATCH_AGE_BUCKETS) {
    const { min, max } = PATCH_AGE_BOUNDS[bucket];
    if (days >= min && (max === null || days <= max)) return bucket;
  }
  return '90+';
}
