import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, defaultRenderThreads, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs everything embedded when nothing is set', () => {
    const config = loadConfig({}, '1.2.3');
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.database.kind).toBe('pglite');
    expect(config.oidc).toMatchObject({
      externalIssuer: undefined,
      issuer: 'http://localhost:8080/idp',
      providerName: 'Demo-SSO',
      scope: 'openid email profile',
    });
    expect(config.demoData).toBe(true);
    expect(config.editor).toBe('builtin');
    expect(config.version).toBe('1.2.3');
  });

  it('uses PostgreSQL and an external issuer when configured', () => {
    const config = loadConfig(
      {
        DATABASE_URL: 'postgres://app:secret@db:5432/vg',
        OIDC_ISSUER: 'https://accounts.google.com',
        OIDC_CLIENT_ID: 'abc.apps.googleusercontent.com',
        OIDC_PROVIDER_NAME: 'Google',
        OIDC_SCOPES: 'openid email profile https://www.googleapis.com/auth/drive.file',
        PUBLIC_URL: 'https://vertraege.example.com/',
      },
      '1.0.0',
    );
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://app:secret@db:5432/vg',
      poolSize: 10,
    });
    expect(config.oidc.issuer).toBe('https://accounts.google.com');
    expect(config.oidc.providerName).toBe('Google');
    expect(config.oidc.scope).toContain('drive.file');
    expect(config.publicUrl).toBe('https://vertraege.example.com');
    expect(config.demoData).toBe(false);
  });

  it('reads the editor from DOCUMENT_EDITOR, or EDITOR when it names one of ours', () => {
    expect(loadConfig({ EDITOR: 'google' }, '1').editor).toBe('google');
    expect(loadConfig({ EDITOR: 'vi' }, '1').editor).toBe('builtin');
    expect(loadConfig({ EDITOR: '/usr/bin/nano', DOCUMENT_EDITOR: 'download' }, '1').editor).toBe('download');
  });

  it('renders with the repository templates in a thread per two cores, at least one, unless told otherwise', () => {
    const embedded = loadConfig({}, '1');
    expect(embedded.templatesDir).toMatch(/\/templates$/);
    expect(embedded.renderThreads).toBe(defaultRenderThreads(availableParallelism()));
    expect([1, 2, 3, 4, 16].map(defaultRenderThreads)).toEqual([1, 1, 1, 2, 8]);
    const configured = loadConfig({ TEMPLATES_DIR: '/srv/vorlagen', RENDER_THREADS: '2' }, '1');
    expect(configured).toMatchObject({ templatesDir: '/srv/vorlagen', renderThreads: 2 });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }, '1').port).toBe(8080);
  });

  it.each([
    ['PORT', 'achtzig'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'localhost'],
    ['DATABASE_URL', 'mysql://x'],
    ['OIDC_ISSUER', 'nicht-url'],
    ['DOCUMENT_EDITOR', 'word'],
    ['DEMO_DATA', 'vielleicht'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT_BYTES', '12'],
    ['RENDER_THREADS', '0'],
    ['RENDER_THREADS', 'viele'],
    ['SEAL_P12_FILE', '/gibt/es/nicht.p12'],
    ['SEAL_P12_PASSWORD', 'ohne Datei'],
    ['TSA_URL', 'ftp://zeit.example/tsa'],
    ['TSA_URL', 'keine-adresse'],
    ['TSA_USERNAME', 'ohne TSA_URL'],
    ['TSA_CA_FILE', '/ohne/TSA_URL.pem'],
    ['TSA_TIMEOUT_SECONDS', '0'],
  ])('stops with a message naming %s for %j', (name, value) => {
    expect(() => loadConfig({ [name]: value }, '1')).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value }, '1')).toThrow(new RegExp(`${name}:`));
  });

  it('seals B-B without TSA_URL, and reads several timestamp authorities in order', () => {
    expect(loadConfig({}, '1').seal.timestamps).toBeUndefined();
    const { timestamps, renewDaysBefore } = loadConfig(
      { TSA_URL: 'https://tsa.eins.example/tsr, http://tsa.zwei.example ', TSA_TIMEOUT_SECONDS: '4' },
      '1',
    ).seal;
    expect(timestamps).toMatchObject({
      urls: ['https://tsa.eins.example/tsr', 'http://tsa.zwei.example'],
      timeoutMs: 4000,
      trustedCertificates: [],
    });
    expect(renewDaysBefore).toBe(90);
  });

  it('needs a client id with an external issuer', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://login.example.com' }, '1')).toThrow(/OIDC_CLIENT_ID/);
  });
});

describe('editor configuration', () => {
  it('asks for the Drive scopes at sign-in when Google Docs is the editor', () => {
    const google = loadConfig({ DOCUMENT_EDITOR: 'google' }, '1');
    expect(google.oidc.scope.split(' ')).toEqual([
      'openid',
      'email',
      'profile',
      'https://www.googleapis.com/auth/drive.file',
      'https://www.googleapis.com/auth/drive.readonly',
    ]);
    expect(google.googleDriveApiUrl).toBe('https://www.googleapis.com');
    expect(loadConfig({}, '1').oidc.scope).toBe('openid email profile');
  });
});

describe('signature configuration', () => {
  const folder = mkdtempSync(join(tmpdir(), 'vg-docusign-'));
  const keyFile = join(folder, 'docusign.pem');
  writeFileSync(
    keyFile,
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  const docusign = {
    DOCUSIGN_INTEGRATION_KEY: 'ik-123',
    DOCUSIGN_USER_ID: 'user-guid',
    DOCUSIGN_ACCOUNT_ID: 'account-guid',
    DOCUSIGN_PRIVATE_KEY_FILE: keyFile,
  };

  it('signs built-in by default, links valid for 14 days, signers confirming a code', () => {
    expect(loadConfig({}, '1').signature).toEqual({
      kind: 'builtin',
      signerCode: 'required',
      linkValidDays: 14,
      reminderEveryDays: 3,
    });
  });

  it('reads SIGNING_OTP and refuses a value it does not know', () => {
    expect(loadConfig({ SIGNING_OTP: 'optional' }, '1').signature).toMatchObject({ signerCode: 'optional' });
    expect(loadConfig({ SIGNING_OTP: 'off' }, '1').signature).toMatchObject({ signerCode: 'off' });
    expect(() => loadConfig({ SIGNING_OTP: 'sometimes' }, '1')).toThrow(/SIGNING_OTP/);
  });

  it('switches to DocuSign with all four variables and reads key and templates', () => {
    const templates = join(folder, 'templates.json');
    writeFileSync(templates, JSON.stringify({ 'de-wm-k-rv-1': 'tpl-1' }));
    const config = loadConfig({ ...docusign, DOCUSIGN_TEMPLATES_FILE: templates }, '1');
    expect(config.signature).toMatchObject({
      kind: 'docusign',
      integrationKey: 'ik-123',
      authUrl: 'https://account-d.docusign.com',
      basePath: undefined,
      templates: { 'de-wm-k-rv-1': 'tpl-1' },
    });
    expect(config.signature.kind === 'docusign' && config.signature.privateKey).toMatch(/BEGIN PRIVATE KEY/);
  });

  it('names what is missing or wrong', () => {
    expect(() => loadConfig({ DOCUSIGN_INTEGRATION_KEY: 'ik' }, '1')).toThrow(/DOCUSIGN_USER_ID: required/);
    expect(() =>
      loadConfig({ ...docusign, DOCUSIGN_PRIVATE_KEY_FILE: join(folder, 'nope.pem') }, '1'),
    ).toThrow(/DOCUSIGN_PRIVATE_KEY_FILE: cannot read/);
    const notPem = join(folder, 'key.txt');
    writeFileSync(notPem, 'secret');
    expect(() => loadConfig({ ...docusign, DOCUSIGN_PRIVATE_KEY_FILE: notPem }, '1')).toThrow(
      /not a PEM private key/,
    );
    const badTemplates = join(folder, 'bad.json');
    writeFileSync(badTemplates, '["tpl"]');
    expect(() => loadConfig({ ...docusign, DOCUSIGN_TEMPLATES_FILE: badTemplates }, '1')).toThrow(
      /DOCUSIGN_TEMPLATES_FILE: expected a JSON object/,
    );
  });
});

describe('CRM configuration', () => {
  const http = { CRM_URL: 'https://crm.example/api/matches/{matchId}', CRM_MAPPING_FILE: 'config/crm.json' };
  const salesforce = {
    CRM_KIND: 'salesforce',
    SALESFORCE_LOGIN_URL: 'https://firma.my.salesforce.com/',
    SALESFORCE_CLIENT_ID: 'cid',
    SALESFORCE_CLIENT_SECRET: 'secret',
    SALESFORCE_OBJECT: 'Match__c',
    SALESFORCE_ID_FIELD: 'Name',
  };

  it('reads the HTTP CRM write-back: CRM_WRITEBACK_URL with {matchId}, POST unless CRM_WRITEBACK_METHOD says otherwise', () => {
    const url = 'https://crm.example/api/deals/{matchId}/vertrag';
    expect(loadConfig({ ...http, CRM_WRITEBACK_URL: url }, '1').crm).toMatchObject({
      writeback: { url, method: 'POST' },
    });
    expect(
      loadConfig({ ...http, CRM_WRITEBACK_URL: url, CRM_WRITEBACK_METHOD: 'PATCH' }, '1').crm,
    ).toMatchObject({ writeback: { url, method: 'PATCH' } });
    expect(() => loadConfig({ ...http, CRM_WRITEBACK_URL: 'https://crm.example/deals' }, '1')).toThrow(
      /CRM_WRITEBACK_URL: must contain \{matchId\}/,
    );
    expect(() => loadConfig({ ...salesforce, CRM_WRITEBACK_URL: url }, '1')).toThrow(
      /CRM_WRITEBACK_URL: not used with CRM_KIND=salesforce/,
    );
    expect(() => loadConfig({ CRM_WRITEBACK_URL: url }, '1')).toThrow(/CRM_WRITEBACK_URL: needs CRM_URL/);
  });

  it('uses the built-in store without CRM_URL or CRM_KIND=salesforce', () => {
    expect(loadConfig({}, '1').crm).toBeUndefined();
  });

  it('reads an HTTP CRM with bearer or basic authentication and the defaults', () => {
    expect(loadConfig({ ...http, CRM_TOKEN: 't0k3n' }, '1').crm).toEqual({
      kind: 'http',
      url: 'https://crm.example/api/matches/{matchId}',
      auth: { kind: 'bearer', token: 't0k3n' },
      mappingFile: join(process.cwd(), 'config/crm.json'),
      timeoutMs: 5000,
      retries: 2,
      cacheSeconds: 0,
    });
    const basic = loadConfig(
      { ...http, CRM_USER: 'u', CRM_PASSWORD: 'p', CRM_CACHE_SECONDS: '900' },
      '1',
    ).crm;
    expect(basic).toMatchObject({ auth: { kind: 'basic', user: 'u', password: 'p' }, cacheSeconds: 900 });
  });

  it('reads the Salesforce preset with its shipped mapping', () => {
    expect(loadConfig(salesforce, '1').crm).toMatchObject({
      kind: 'salesforce',
      loginUrl: 'https://firma.my.salesforce.com',
      object: 'Match__c',
      idField: 'Name',
      apiVersion: '62.0',
      mappingFile: expect.stringMatching(/config\/crm-mapping\.salesforce\.json$/),
    });
  });

  it.each([
    [{ CRM_URL: 'https://crm.example/api/matches' }, /CRM_URL: must contain \{matchId\}/],
    [{ CRM_URL: 'crm/{matchId}', CRM_MAPPING_FILE: 'm.json' }, /CRM_URL: must be a URL/],
    [{ CRM_URL: http.CRM_URL }, /CRM_MAPPING_FILE: required with CRM_URL/],
    [{ ...http, CRM_TOKEN: 't', CRM_USER: 'u', CRM_PASSWORD: 'p' }, /CRM_TOKEN: set either/],
    [{ ...http, CRM_USER: 'u' }, /CRM_PASSWORD: required with CRM_USER/],
    [{ ...http, CRM_TIMEOUT_MS: 'fünf' }, /CRM_TIMEOUT_MS:/],
    [{ ...http, CRM_CACHE_SECONDS: '-1' }, /CRM_CACHE_SECONDS:/],
    [{ CRM_KIND: 'hubspot' }, /CRM_KIND:/],
    [{ CRM_TOKEN: 't' }, /CRM_TOKEN: needs CRM_URL or CRM_KIND=salesforce/],
    [
      { ...salesforce, SALESFORCE_CLIENT_SECRET: '' },
      /SALESFORCE_CLIENT_SECRET: required with CRM_KIND=salesforce/,
    ],
    [
      { ...salesforce, SALESFORCE_OBJECT: "Match__c WHERE Name != ''" },
      /SALESFORCE_OBJECT: must be an API name/,
    ],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env, '1')).toThrow(ConfigError);
    expect(() => loadConfig(env, '1')).toThrow(message);
  });
});

describe('docs/configuration.md', () => {
  it('documents every variable the server reads', () => {
    const docs = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(20);
    for (const name of CONFIG_VARIABLES) expect(docs, name).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|`));
  });
});
