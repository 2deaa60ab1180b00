export * from './api.js';
export * from './permissions.js';
