// Serves the demo page: esbuild bundles demo/main.ts (which imports src/) in
// memory on every request, so an edit shows on reload. Listens on 127.0.0.1
// only; PORT picks the port (0: any free one) and the URL is printed.
import { context } from 'esbuild';
import { esbuildOptions } from './esbuild-options.mjs';

const ctx = await context({
  ...esbuildOptions,
  entryPoints: ['demo/main.ts'],
  outdir: 'demo',
  platform: 'browser',
  sourcemap: true,
  write: false, // served from memory, never written into demo/
});
const { port } = await ctx.serve({
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 8000),
  servedir: 'demo',
});
console.log(`spatialkit demo: http://127.0.0.1:${port}/`);

const stop = () => {
  ctx.dispose().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
