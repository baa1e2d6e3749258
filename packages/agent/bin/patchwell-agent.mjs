#!/usr/bin/env node
// Runs the agent from source through tsx; the devices issue adds an esbuild bundle.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
