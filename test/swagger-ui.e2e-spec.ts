/**
 * Swagger UI at /docs, as an API user tries it in Chromium: "Authorize" with a key, then "Try it
 * out" and "Execute" on every operation with the document's examples; each answers 2xx. Real
 * gateway, PostgreSQL, Redis and S3 endpoint; Debian's Chromium headless (test/support/browser.ts).
 */
import request from 'supertest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser';
import { startGateway, type Gateway } from './support/gateway';
import { freePort } from './support/stack';

jest.setTimeout(180_000);

describe('Swagger UI: Authorize, then Try it out on every operation', () => {
  let gw: Gateway;
  let browser: Browser;
  let key: string;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The document's server is the public URL: "Try it out" calls this very gateway.
    gw = await startGateway({ port, publicBaseUrl: base });
    await gw.app.listen(port, '127.0.0.1');
    key = (await gw.organization('pro')).live;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  /** Opens an operation, fills its parameters, executes it and answers the status Swagger UI shows. */
  async function tryIt(
    page: Page,
    operationId: string,
    fill: Record<string, string> = {},
    file?: { name: string; content: string },
  ): Promise<string> {
    // The operation's block (the tag section `operations-tag-health` ends the same way as `health`).
    const block = page.locator(`.opblock[id$="-${operationId}"]`).first();
    if (
      !(await block.locator('.try-out').count()) ||
      !(await block
        .locator('.try-out__btn')
        .isVisible()
        .catch(() => false))
    ) {
      await block.locator('.opblock-summary').first().click();
    }
    await block.locator('.try-out__btn').click();
    for (const [name, value] of Object.entries(fill)) {
      // Parameters are rows by name; the fields of a multipart body, rows by property.
      const row = block.locator(`tr[data-param-name="${name}"], tr[data-property-name="${name}"]`);
      const select = row.locator('select');
      if (await select.count()) await select.first().selectOption(value);
      else await row.locator('input').first().fill(value);
    }
    if (file)
      await block
        .locator('input[type="file"]')
        .setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.content) });
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    return (await status.innerText()).trim().split(/\s/)[0]!;
  }

  it('authorizes with a key and runs every operation with its example', async () => {
    const { page } = browser;
    await page.goto(`${base}/docs/`);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('button.authorize').first().click();
    await page.locator('.auth-container input').first().fill(key);
    await page.locator('.auth-btn-wrapper button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').click();
    await browser.screenshot('swagger-authorized');

    // A file to read and download, made through the API with the same key.
    const generated = await request(gw.http)
      .post('/v1/files/generate')
      .set('Authorization', `Bearer ${key}`)
      .send(
        (await request(gw.http).get('/docs-json')).body.paths['/v1/files/generate'].post.requestBody.content[
          'application/json'
        ].examples.employer_adf.value,
      );
    expect(generated.status).toBe(200);
    const csv = await request(gw.http)
      .get(`/v1/files/${generated.body.file_id}/download`)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true);

    const results: Record<string, string> = {};
    results.listSpecVersions = await tryIt(page, 'listSpecVersions');
    results.describeSpec = await tryIt(page, 'describeSpec', { version: '2026-02' });
    results.searchReferences = await tryIt(page, 'searchReferences', {
      version: '2026-02',
      list: 'rome',
      q: 'secours',
    });
    results.validateDeclarations = await tryIt(page, 'validateDeclarations');
    results.generateFile = await tryIt(page, 'generateFile');
    results.validateFile = await tryIt(
      page,
      'validateFile',
      { type: 'adf', declarant: 'employer' },
      { name: generated.body.filename, content: csv.text },
    );
    results.fixFile = await tryIt(
      page,
      'fixFile',
      { type: 'adf', declarant: 'employer' },
      { name: generated.body.filename, content: csv.text },
    );
    results.importDeclarations = await tryIt(
      page,
      'importDeclarations',
      { type: 'adf', declarant: 'employer' },
      { name: 'sessions.csv', content: csv.text },
    );
    results.downloadTemplate = await tryIt(page, 'downloadTemplate', {
      version: '2026-02',
      type: 'adf',
      declarant: 'employer',
    });
    results.getFile = await tryIt(page, 'getFile', { id: generated.body.file_id });
    results.downloadFile = await tryIt(page, 'downloadFile', { id: generated.body.file_id });
    results.live = await tryIt(page, 'live');
    results.ready = await tryIt(page, 'ready');
    results.health = await tryIt(page, 'health');
    await browser.screenshot('swagger-executed');
    // Every operation of the document was tried: a new one cannot be left out of this test.
    const documented = Object.values(
      (await request(gw.http).get('/docs-json')).body.paths as Record<
        string,
        Record<string, { operationId: string }>
      >,
    ).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(Object.keys(results).sort()).toEqual(documented.sort());
    expect(results).toEqual({
      listSpecVersions: '200',
      describeSpec: '200',
      searchReferences: '200',
      validateDeclarations: '200',
      generateFile: '200',
      validateFile: '200',
      fixFile: '200',
      importDeclarations: '200',
      downloadTemplate: '200',
      getFile: '200',
      downloadFile: '200',
      live: '200',
      ready: '200',
      health: '200',
    });
  });
});
