#!/usr/bin/env node
// Runs the agent from source through tsx; `npm run build` makes the one-file bundle (dist/).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
