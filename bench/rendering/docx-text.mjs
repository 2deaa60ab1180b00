/**
 * The text a reader sees in a DOCX, paragraph by paragraph, for body, headers and footers: what must
 * be equal for two engines to have rendered "the same contract". Formatting runs may differ.
 */
export function documentText(PizZip, content) {
  const zip = new PizZip(content);
  return Object.keys(zip.files)
    .filter((name) => /^word\/(document|header\d*|footer\d*)\.xml$/.test(name))
    .sort()
    .flatMap((name) => [`[${name}]`, ...paragraphs(zip.files[name].asText())]);
}

function paragraphs(xml) {
  return xml.split('</w:p>').map((paragraph) =>
    decodeEntities(
      paragraph
        .replace(/<w:br\/>/g, '\n')
        .replace(/<w:tab\/>/g, '\t')
        .replace(/<[^>]+>/g, ''),
    ),
  );
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? entity;
  });
}

/** The first paragraph where two texts differ, for an error message; undefined when they are equal. */
export function firstDifference(expected, actual) {
  const length = Math.max(expected.length, actual.length);
  for (let i = 0; i < length; i++) {
    if (expected[i] !== actual[i]) {
      return `paragraph ${i}: expected ${JSON.stringify(expected[i])}, got ${JSON.stringify(actual[i])}`;
    }
  }
  return undefined;
}
