export * from './catalogue.js';
export * from './data-lists.js';
export * from './document-names.js';
export * from './field-sources.js';
export * from './template-data.js';
export * from './template-fields.js';
