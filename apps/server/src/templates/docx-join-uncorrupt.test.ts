import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CATALOGUE } from '@vertragsgenerator/domain';
import type { DXT } from 'docxtemplater';
import { describe, expect, it } from 'vitest';
import { loadCompanyData } from './companies.js';
import { type JoinUncorruptOptions, joinUncorruptFor } from './docx-join-uncorrupt.js';
import { compileTemplate } from './docx-template.js';
import { richestDemoMatch, sampleTemplateData } from './samples.js';

type Parts = (string | Uint8Array)[];
type JoinUncorrupt = (parts: Parts, options: JoinUncorruptOptions) => Parts;

const require = createRequire(import.meta.url);
const original = require('docxtemplater/js/join-uncorrupt.js') as JoinUncorrupt;
const { docx: wordContentTypes } = require('docxtemplater/js/filetypes.js') as { docx: string[] };
const { docx: wordFileType } = require('docxtemplater/js/file-type-config.js') as {
  docx: () => JoinUncorruptOptions['fileTypeConfig'];
};
const ours = joinUncorruptFor(wordContentTypes);
const repository = new URL('../../../../', import.meta.url).pathname;

/** Both on their own copy of the parts (both change the list they are given). */
const both = (parts: Parts, options: JoinUncorruptOptions) => ({
  ours: ours([...parts], options),
  original: original([...parts], options),
});

const word: JoinUncorruptOptions = {
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  fileTypeConfig: wordFileType(),
};

describe('joinUncorrupt', () => {
  it.each([
    [
      'a cell left without a paragraph',
      true,
      [
        '<w:tbl>',
        '<w:tr>',
        '<w:tc>',
        '<w:tcPr>',
        '</w:tcPr>',
        '</w:tc>',
        '</w:tr>',
        '</w:tbl>',
        '<w:p>',
        '</w:p>',
      ],
    ],
    [
      'a row left without cells',
      true,
      [
        '<w:tbl>',
        '<w:tr w:rsidR="1">',
        '',
        '</w:tr>',
        '<w:tr>',
        '<w:tc>',
        '<w:p>',
        'x',
        '</w:p>',
        '</w:tc>',
        '</w:tr>',
        '</w:tbl>',
      ],
    ],
    [
      'a table left without rows',
      true,
      ['<w:body>', '<w:tbl>', '<w:tblPr/>', '</w:tbl>', '<w:sectPr>', '</w:sectPr>'],
    ],
    [
      'text right after a table',
      true,
      [
        '<w:tbl>',
        '<w:tr>',
        '</w:tr>',
        '</w:tbl>',
        ' \n',
        '<w:bookmarkEnd w:id="0"/>',
        'Text',
        '<w:r>',
        '</w:r>',
      ],
    ],
    [
      'a table, white space and a paragraph',
      true,
      ['<w:tbl>', '</w:tbl>', '\t', '<w:p/>', '</w:tbl>', '</w:hdr>'],
    ],
    [
      'self-closing and merged tags',
      true,
      ['<w:tc/>', '<w:tc><w:p>', '</w:tc>', '<w:tc>', '<w:r>', '</w:tc>', '<w:tcW/>'],
    ],
    [
      'bytes among the text',
      true,
      ['<w:tc>', new Uint8Array([60, 119]), '</w:tc>', '</w:tbl>', new Uint8Array(2), 'x'],
    ],
    [
      'a cell filled in a row it then keeps',
      true,
      ['<w:tbl>', '<w:tr>', '<w:tc>', '</w:tc>', '</w:tr>', '</w:tbl>'],
    ],
    [
      'a row whose cells were all dropped',
      true,
      [
        '<w:tbl>',
        '<w:tr>',
        'x',
        '</w:tr>',
        '<w:tr>',
        '<w:tc>',
        '<w:p>',
        '</w:p>',
        '</w:tc>',
        '</w:tr>',
        '</w:tbl>',
        '<w:tbl >',
        '</w:tbl>',
      ],
    ],
    [
      'names that only begin like an element',
      true,
      ['<w:tcPr>', '<w:tc', '<w:tc\n>', '</w:tc >', '<w:tc>', '<w:trPr/>', '</w:tc>', '<w:tbl/>'],
    ],
    ['an element never closed', false, ['<w:sdtContent>', 'frei', '<w:tc>', '</w:tc>', '<w:tr>']],
  ] satisfies [string, boolean, Parts][])('does as docxtemplater’s does with %s', (_case, changes, parts) => {
    const { ours: joined, original: expected } = both(parts, word);
    expect(joined).toEqual(expected);
    // Whether docxtemplater changes the list at all: most cases are of real work.
    expect(JSON.stringify(expected) !== JSON.stringify(parts)).toBe(changes);
  });

  it('changes nothing else than docxtemplater’s would: every part list of every template, rendered', async () => {
    const companyData = await loadCompanyData(join(repository, 'config'));
    const match = await richestDemoMatch(join(repository, 'config/demo-matches.json'));
    let lists = 0;
    let changed = 0;
    // Sees every list docxtemplater joins (a section's, a part's) and compares the two on it.
    const compare = (): DXT.Module => ({
      name: 'CompareJoinUncorrupt',
      priority: 1000,
      render: (_part, options) => {
        (options as unknown as { joinUncorrupt: JoinUncorrupt }).joinUncorrupt = (parts, joinOptions) => {
          const { ours: joined, original: expected } = both(parts, joinOptions);
          expect(joined).toEqual(expected);
          lists++;
          if (expected.join('') !== parts.join('')) changed++;
          return original(parts, joinOptions);
        };
        return null;
      },
    });
    const firstOfTemplate = new Map([...CATALOGUE.values()].map((entry) => [entry.template, entry]));
    for (const entry of firstOfTemplate.values()) {
      const bytes = readFileSync(join(repository, 'templates', entry.template));
      compileTemplate(bytes, [compare()]).render(
        sampleTemplateData(entry, match, companyData, new Date(2026, 10, 21)),
      );
    }
    expect(lists).toBeGreaterThan(firstOfTemplate.size);
    // The templates' tables are followed by paragraphs and their cells keep theirs: their lists come
    // through unchanged, and the cases above are those that change.
    expect(changed).toBe(0);
  });
});
