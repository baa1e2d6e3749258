import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

describe('the theme’s CSS variables', () => {
  // Providers turns Mantine's own variables off (`withCssVariables={false}`): main.tsx loads them
  // from theme-variables.css with the first page's styles, so no page computes them before its
  // first paint. A theme change shows here; `npx vitest run -u src/app/theme-variables` writes it.
  it('are the file the console loads, as MantineProvider would write them', async () => {
    const html = renderToStaticMarkup(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <span />
      </MantineProvider>,
    );
    const css = /<style data-mantine-styles="true">([\s\S]*?)<\/style>/.exec(html)?.[1];
    expect(css).toBeTruthy();
    await expect(`/* Written by theme-variables.test.tsx from theme.ts: do not edit. */\n${css}\n`).toMatchFileSnapshot(
      './theme-variables.css',
    );
  });
});
