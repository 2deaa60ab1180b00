import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_FIELDS } from './template-fields.js';

describe('field dictionary', () => {
  it('is documented for legal staff: docs/templates.md names every placeholder', () => {
    const docs = readFileSync(new URL('../../../../docs/templates.md', import.meta.url), 'utf8');
    for (const [name, field] of Object.entries(TEMPLATE_FIELDS)) {
      expect(docs, name).toContain(field.kind === 'text' ? `\`{${name}}\`` : `\`{#${name}}…{/${name}}\``);
      for (const item of Object.keys('item' in field ? field.item : {}))
        expect(docs, item).toContain(`\`{${item}}\``);
    }
  });
});
