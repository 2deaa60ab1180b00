export * from './api.js';
export * from './display.js';
export * from './documents/index.js';
export * from './format.js';
export * from './match.js';
export * from './permissions.js';
export * from './plausibility.js';
