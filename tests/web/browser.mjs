// browser.mjs — what the tests/web/*.mjs drivers share: TAP lines (ok) and a
// headless Chromium (playwright-core, /usr/bin/chromium) with a fresh profile
// under XCB_OUT whose console errors and uncaught exceptions are collected.

import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ok(cond, name, diag): one TAP line; a failure prints diag as comments.
// failures() counts them (the driver's exit status).
let failed = 0;
export const failures = () => failed;
export function ok(cond, name, diag) {
	console.log(`${cond ? 'ok' : 'not ok'} - ${name}`);
	if (!cond) {
		failed++;
		if (diag !== undefined) console.log(`# ${String(typeof diag === 'string' ? diag : JSON.stringify(diag)).split('\n').join('\n# ')}`);
	}
	return cond;
}

// launch(out, name): {ctx, page, errors, ready, profile}; ready() waits for the page's
// data-ready (every page sets it once drawn).
export async function launch(out, name) {
	const require = createRequire(path.join(ROOT, 'web/package.json'));
	const { chromium } = require('playwright-core');
	const profile = fs.mkdtempSync(path.join(out, `chromium-${name}-`));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1366, height: 900 },
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	const errors = [];
	const page = ctx.pages()[0] || (await ctx.newPage());
	page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
	page.on('pageerror', (e) => errors.push(`${page.url()}: uncaught ${e.message}`));
	const ready = () => page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
	return { ctx, page, errors, ready, profile };
}
