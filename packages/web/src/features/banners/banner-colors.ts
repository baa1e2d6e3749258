import type { Banner } from '@patchwell/core/shell/banner.schema';

/** Alert banner colours by message type: danger red, warning yellow, maintenance orange, info blue, third party gray. */
export const BANNER_COLORS: Record<Banner['messagetype'], string> = {
  danger: 'red',
  warning: 'yellow',
  maintenance: 'orange',
  info: 'blue',
  thirdparty: 'gray',
};
